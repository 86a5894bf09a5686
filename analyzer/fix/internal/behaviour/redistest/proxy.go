package redistest

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Proxy is a loopback TCP proxy whose forwarding a test can stop: while
// stalled it keeps accepting connections and reading bytes but holds them,
// so clients see a live connection that never answers, as with a network
// partition that drops packets rather than resetting connections.
type Proxy struct {
	Addr   string
	target string
	ln     net.Listener

	mu      sync.Mutex
	resumed chan struct{} // closed while forwarding
	conns   []net.Conn
	closed  bool
	faults  []*Fault
}

// Fault is a rule for commands that pass through a Proxy: the first Times
// commands that Match get the fault, later ones pass.
type Fault struct {
	// Match is given the command's arguments, the name upper-cased.
	Match func(args []string) bool
	Times int
	// Answer, when set, is sent to the client instead of forwarding the
	// command (a RESP error such as "-LOADING ..."): the server never sees
	// it, as with a node that is loading or failing over.
	Answer string
	// Otherwise the command is forwarded and runs, and its reply is
	// swallowed: the client's connection is closed Hold after the reply
	// arrived, or, with a negative Hold, left open and silent so the client
	// waits for its read timeout.
	Hold time.Duration
	// Delay, when set, delivers the reply that late instead of losing it.
	Delay time.Duration

	hits atomic.Int64
}

// Hits returns how many commands got the fault.
func (f *Fault) Hits() int { return int(f.hits.Load()) }

// Inject adds a fault rule; rules are tried in the order they were added.
func (p *Proxy) Inject(f *Fault) *Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults = append(p.faults, f)
	return f
}

// Clear removes every fault rule.
func (p *Proxy) Clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults = nil
}

// fault returns the rule that claims a command, using up one of its times.
func (p *Proxy) fault(args []string) *Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.faults {
		if int(f.hits.Load()) < f.Times && f.Match(args) {
			f.hits.Add(1)
			return f
		}
	}
	return nil
}

// Command matches a command by name (and, with more words, by arguments
// that must all appear), e.g. Command("SET", "NX") or Command("EVALSHA").
func Command(name string, words ...string) func(args []string) bool {
	return func(args []string) bool {
		if len(args) == 0 || args[0] != name {
			return false
		}
		for _, w := range words {
			found := false
			for _, a := range args[1:] {
				if strings.EqualFold(a, w) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
}

// StartProxy forwards a loopback port to target until the test ends.
func StartProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: ln.Addr().String(), target: target, ln: ln, resumed: make(chan struct{})}
	close(p.resumed)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

// Stall stops forwarding in both directions; bytes read meanwhile are held.
func (p *Proxy) Stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.resumed:
		p.resumed = make(chan struct{})
	default:
	}
}

// Resume forwards again, held bytes first.
func (p *Proxy) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.resumed:
	default:
		close(p.resumed)
	}
}

func (p *Proxy) gate() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resumed
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		u, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			c.Close()
			u.Close()
			return
		}
		p.conns = append(p.conns, c, u)
		p.mu.Unlock()
		l := &link{client: c, server: u}
		go p.requests(l)
		go p.replies(l)
	}
}

// link is one proxied connection. The library sends one command at a time
// on a connection, so the next reply from the server is the reply to the
// last command forwarded.
type link struct {
	client, server net.Conn
	wmu            sync.Mutex // serialises writes to client
	swallow        atomic.Pointer[Fault]
}

// requests forwards commands from the client, applying fault rules.
func (p *Proxy) requests(l *link) {
	defer l.server.Close()
	defer l.client.Close()
	rd := bufio.NewReader(l.client)
	for {
		raw, args, err := readCommand(rd)
		if err != nil {
			return
		}
		<-p.gate()
		if f := p.fault(args); f != nil {
			if f.Answer != "" {
				l.wmu.Lock()
				_, err := l.client.Write([]byte(f.Answer + "\r\n"))
				l.wmu.Unlock()
				if err != nil {
					return
				}
				continue
			}
			l.swallow.Store(f)
		}
		if _, err := l.server.Write(raw); err != nil {
			return
		}
	}
}

// replies forwards the server's replies, swallowing one when a fault says so.
func (p *Proxy) replies(l *link) {
	defer l.server.Close()
	defer l.client.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := l.server.Read(buf)
		if n > 0 {
			<-p.gate()
			if f := l.swallow.Load(); f != nil && f.Delay > 0 {
				l.swallow.Store(nil)
				time.Sleep(f.Delay)
			} else if f != nil {
				// The command ran; its reply never reaches the client.
				if f.Hold < 0 {
					_, _ = bytesDiscard(l.server, buf)
					return
				}
				time.Sleep(f.Hold)
				return
			}
			l.wmu.Lock()
			_, werr := l.client.Write(buf[:n])
			l.wmu.Unlock()
			if werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// bytesDiscard reads and drops everything until the connection ends.
func bytesDiscard(c net.Conn, buf []byte) (int, error) {
	total := 0
	for {
		n, err := c.Read(buf)
		total += n
		if err != nil {
			return total, err
		}
	}
}

// readCommand reads one RESP array of bulk strings (what clients send) and
// returns its raw bytes and its arguments, the name upper-cased. Inline
// commands are passed through with their words as arguments.
func readCommand(rd *bufio.Reader) ([]byte, []string, error) {
	var raw bytes.Buffer
	line, err := rd.ReadBytes('\n')
	if err != nil {
		return nil, nil, err
	}
	raw.Write(line)
	if len(line) == 0 || line[0] != '*' {
		words := strings.Fields(string(line))
		if len(words) > 0 {
			words[0] = strings.ToUpper(words[0])
		}
		return raw.Bytes(), words, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(line[1:])))
	if err != nil {
		return nil, nil, err
	}
	args := make([]string, 0, n)
	for range n {
		hdr, err := rd.ReadBytes('\n')
		if err != nil {
			return nil, nil, err
		}
		raw.Write(hdr)
		size, err := strconv.Atoi(strings.TrimSpace(string(hdr[1:])))
		if err != nil {
			return nil, nil, err
		}
		data := make([]byte, size+2)
		if _, err := io.ReadFull(rd, data); err != nil {
			return nil, nil, err
		}
		raw.Write(data)
		args = append(args, string(data[:size]))
	}
	if len(args) > 0 {
		args[0] = strings.ToUpper(args[0])
	}
	return raw.Bytes(), args, nil
}

func (p *Proxy) close() {
	p.mu.Lock()
	p.closed = true
	conns := p.conns
	p.conns = nil
	p.mu.Unlock()
	p.ln.Close()
	// Release goroutines parked at the gate so they see the closed conns.
	p.Resume()
	for _, c := range conns {
		c.Close()
	}
}
