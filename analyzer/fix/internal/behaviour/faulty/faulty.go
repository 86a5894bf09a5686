// Package faulty is a lock.Client that injects network faults into the
// commands of the client it wraps, on a schedule a test writes (which
// call of which command loses its reply, fails, runs twice or stalls),
// and records every command it lets through: the history a checker reads.
//
// Faults happen where a network would put them, between the library and
// the real client: the wrapped client (go-redis, redigo, rueidis, ...)
// still talks to a real server. A stall honours the caller's context the
// way the wrapped client does: a client whose commands end at their
// deadline (Info().Deadlines) returns then, while the held command still
// reaches the server when the stall ends; any other client waits out the
// stall whatever the context says.
package faulty

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/locklint/locklint/analyzer/fix/lock"
)

// Kind is what a library command does, read from its words.
type Kind string

const (
	Acquire Kind = "acquire" // SET NX, or an acquire script
	Get     Kind = "get"     // the GET after a SET NX that found the key taken
	Release Kind = "release" // DELEX IFEQ, or the compare-and-delete script
	Refresh Kind = "refresh" // SET IFEQ, or the compare-and-expire script
	Handoff Kind = "handoff" // the hand-off script (a queued lock's release)
	Leave   Kind = "leave"   // the script that leaves the server's queue
	Wait    Kind = "wait"    // WAIT, after a write, in a pipeline
	Other   Kind = "other"
	// Subscribe is the opening of a pub/sub connection, and Message one
	// message on it: LoseReply drops it, Stall delays it.
	Subscribe Kind = "subscribe"
	Message   Kind = "message"
)

// Action is a fault.
type Action int

const (
	// LoseReply runs the command; the caller gets a transport error.
	LoseReply Action = iota + 1
	// FailSend does not run the command; the caller gets a transport error.
	FailSend
	// Duplicate runs the command twice, as a client that re-sends it after
	// a lost reply; the caller gets the second reply.
	Duplicate
	// Stall holds the command for Rule.Delay before it runs.
	Stall
)

func (a Action) String() string {
	switch a {
	case LoseReply:
		return "lose-reply"
	case FailSend:
		return "fail-send"
	case Duplicate:
		return "duplicate"
	case Stall:
		return "stall"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// Rule schedules a fault: the Nth command of Kind (counted from 1 on this
// client, 0 for every one) gets Action, at most Times times (0: no limit).
type Rule struct {
	Kind   Kind
	Nth    int
	Times  int
	Action Action
	Delay  time.Duration // for Stall
	// Token, when set, restricts the rule to commands that carry it.
	Token string

	hits int
}

// Sent is one command the library sent.
type Sent struct {
	At     time.Time // when the library sent it (monotonic)
	Arrive time.Time // when it reached the server, for a stalled one
	Kind   Kind
	Tag    string // the Tag of the context it was sent under
	Words  []string
	Fault  Action // 0 when none
}

type tagKey struct{}

// Tag returns ctx tagged with tag: the commands sent under it (and under
// the contexts the library derives from it) are recorded with the tag.
func Tag(ctx context.Context, tag string) context.Context {
	return context.WithValue(ctx, tagKey{}, tag)
}

// Token returns the owner token an acquire carries, or "".
func (s Sent) Token() string {
	if s.Kind != Acquire || len(s.Words) < 3 {
		return ""
	}
	switch strings.ToUpper(s.Words[0]) {
	case "SET":
		return s.Words[2]
	case "EVALSHA", "EVAL":
		if n, err := strconv.Atoi(s.Words[2]); err == nil && len(s.Words) > 3+n {
			return s.Words[3+n]
		}
	}
	return ""
}

// Carries reports whether the command's words include tok.
func (s Sent) Carries(tok string) bool { return slices.Contains(s.Words, tok) }

// Client wraps a lock.Client. Its methods are safe for concurrent use.
type Client struct {
	inner   lock.Client
	scripts map[string]Kind // script SHA1 -> what it does

	mu      sync.Mutex
	rules   []*Rule
	counts  map[Kind]int
	history []Sent
	faults  int
	// Decide, when set, is asked for a fault for each command no rule
	// matched: the randomized schedule.
	decide func(k Kind, words []string) (Action, time.Duration)
	// pastDeadline, when set, is how long after its context's deadline a
	// command is still written (see WritesPastDeadline).
	pastDeadline time.Duration
}

// New wraps inner; scripts maps the library's Lua sources (by file name,
// as in lock/scripts) so that script commands are told apart.
func New(inner lock.Client, scripts map[string]string) *Client {
	c := &Client{inner: inner, scripts: map[string]Kind{}, counts: map[Kind]int{}}
	kinds := map[string]Kind{
		"acquire.lua": Acquire, "fenced.lua": Acquire, "release.lua": Release,
		"refresh.lua": Refresh, "handoff.lua": Handoff, "leave.lua": Leave,
	}
	for name, src := range scripts {
		h := sha1.Sum([]byte(src))
		k, ok := kinds[name]
		if !ok {
			k = Other
		}
		c.scripts[hex.EncodeToString(h[:])] = k
	}
	return c
}

// Inject adds rules; the first that matches a command decides its fault.
func (c *Client) Inject(rules ...*Rule) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rules = append(c.rules, rules...)
}

// Randomly sets the function asked for a fault when no rule matches.
func (c *Client) Randomly(decide func(k Kind, words []string) (Action, time.Duration)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.decide = decide
}

// WritesPastDeadline makes c write a command given to it up to d after
// its context's deadline, and return its reply, as a client does whose
// own timer notices the deadline late (or whose writer flushes what was
// queued before it looked). A stalled command still ends at the deadline.
func (c *Client) WritesPastDeadline(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pastDeadline = d
}

// Hits returns how many commands r faulted.
func (c *Client) Hits(r *Rule) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return r.hits
}

// History returns the commands sent so far, in the order they left.
func (c *Client) History() []Sent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.history)
}

// Faults returns how many faults were injected.
func (c *Client) Faults() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.faults
}

// KindOf tells what cmd does.
func (c *Client) KindOf(cmd lock.Command) Kind {
	if len(cmd.Head) == 0 {
		return Other
	}
	has := func(w string) bool {
		return slices.ContainsFunc(cmd.Args, func(a string) bool { return strings.EqualFold(a, w) })
	}
	switch strings.ToUpper(cmd.Head[0]) {
	case "SET":
		switch {
		case has("IFEQ"):
			return Refresh
		case has("NX"):
			return Acquire
		}
	case "GET":
		return Get
	case "DELEX":
		return Release
	case "WAIT":
		return Wait
	case "EVALSHA":
		if len(cmd.Head) > 1 {
			if k, ok := c.scripts[strings.ToLower(cmd.Head[1])]; ok {
				return k
			}
		}
	case "EVAL":
		if len(cmd.Head) > 1 {
			h := sha1.Sum([]byte(cmd.Head[1]))
			if k, ok := c.scripts[hex.EncodeToString(h[:])]; ok {
				return k
			}
		}
	}
	return Other
}

func words(cmds ...lock.Command) []string {
	var w []string
	for _, c := range cmds {
		w = append(append(append(w, c.Head...), c.Keys...), c.Args...)
	}
	return w
}

// fault decides the fault of one command (or pipeline, by its first
// command's kind) and counts it.
func (c *Client) fault(k Kind, w []string) (Action, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts[k]++
	n := c.counts[k]
	for _, r := range c.rules {
		if r.Kind != "" && r.Kind != k || r.Nth != 0 && r.Nth != n || r.Times != 0 && r.hits >= r.Times {
			continue
		}
		if r.Token != "" && !slices.Contains(w, r.Token) {
			continue
		}
		r.hits++
		c.faults++
		return r.Action, r.Delay
	}
	if c.decide != nil {
		if a, d := c.decide(k, w); a != 0 {
			c.faults++
			return a, d
		}
	}
	return 0, 0
}

func (c *Client) record(ctx context.Context, at time.Time, k Kind, w []string, a Action) {
	tag, _ := ctx.Value(tagKey{}).(string)
	c.mu.Lock()
	c.history = append(c.history, Sent{At: at, Arrive: time.Now(), Kind: k, Tag: tag, Words: w, Fault: a})
	c.mu.Unlock()
}

// ErrInjected is the transport error of an injected fault.
var ErrInjected = &net.OpError{Op: "read", Net: "tcp", Err: fmt.Errorf("injected fault: %w", syscall.ECONNRESET)}

// Do implements lock.Client.
func (c *Client) Do(ctx context.Context, cmd lock.Command) (any, error) {
	w := words(cmd)
	k := c.KindOf(cmd)
	a, d := c.fault(k, w)
	var r any
	err := c.run(ctx, k, w, a, d, func(ctx context.Context) error {
		var err error
		r, err = c.inner.Do(ctx, cmd)
		return err
	})
	return r, err
}

// Pipeline implements lock.Client; a fault applies to the whole pipeline.
func (c *Client) Pipeline(ctx context.Context, cmds ...lock.Command) ([]any, error) {
	w := words(cmds...)
	k := Other
	if len(cmds) > 0 {
		k = c.KindOf(cmds[0])
	}
	a, d := c.fault(k, w)
	var r []any
	err := c.run(ctx, k, w, a, d, func(ctx context.Context) error {
		var err error
		r, err = c.inner.Pipeline(ctx, cmds...)
		return err
	})
	return r, err
}

// run sends one command (or pipeline) through send with fault a.
func (c *Client) run(ctx context.Context, k Kind, w []string, a Action, d time.Duration, send func(context.Context) error) error {
	at := time.Now()
	switch a {
	case FailSend:
		c.record(ctx, at, k, w, a) // the library sent it; the server never sees it
		return ErrInjected
	case LoseReply:
		c.record(ctx, at, k, w, a)
		// The bytes left: the command runs even if the caller's context
		// ends now.
		_ = send(context.WithoutCancel(ctx))
		return ErrInjected
	case Duplicate:
		c.record(ctx, at, k, w, a)
		_ = send(context.WithoutCancel(ctx))
		c.record(ctx, at, k, w, a)
		return send(ctx)
	case Stall:
		return c.stall(ctx, at, k, w, d, send)
	}
	c.record(ctx, at, k, w, 0)
	c.mu.Lock()
	late := c.pastDeadline
	c.mu.Unlock()
	if deadline, ok := ctx.Deadline(); ok && late > 0 {
		sctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), deadline.Add(late))
		defer cancel()
		return send(sctx)
	}
	return send(ctx)
}

func (c *Client) stall(ctx context.Context, at time.Time, k Kind, w []string, d time.Duration, send func(context.Context) error) error {
	arrive := time.Now().Add(d)
	if deadline, ok := ctx.Deadline(); ok && c.inner.Info().Deadlines && deadline.Before(arrive) {
		// The client gives up at the deadline; the held bytes reach the
		// server when the stall ends.
		done := make(chan struct{})
		go func() {
			defer close(done)
			time.Sleep(time.Until(arrive))
			c.record(ctx, at, k, w, Stall)
			_ = send(context.WithoutCancel(ctx))
		}()
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		select {
		case <-t.C:
			return fmt.Errorf("%w (deadline)", ErrInjected)
		case <-done:
			// Cannot happen before the deadline; kept for clarity.
			return ErrInjected
		}
	}
	// A client that does not end commands at their deadline blocks for the
	// whole stall.
	time.Sleep(d)
	c.record(ctx, at, k, w, Stall)
	return send(context.WithoutCancel(ctx))
}

// Subscribe implements lock.Client: a LoseReply or FailSend rule for
// Subscribe fails the subscription; a rule for Message drops (LoseReply)
// or delays (Stall) a message.
func (c *Client) Subscribe(ctx context.Context, sharded bool, channels ...string) (lock.Subscription, error) {
	switch a, _ := c.fault(Subscribe, channels); a {
	case FailSend, LoseReply:
		return nil, ErrInjected
	}
	s, err := c.inner.Subscribe(ctx, sharded, channels...)
	if err != nil {
		return nil, err
	}
	f := &subscription{Subscription: s, c: c, out: make(chan lock.Message, 16), stop: make(chan struct{})}
	go f.pump()
	return f, nil
}

// ServerID implements lock.Client.
func (c *Client) ServerID(ctx context.Context, key string) string { return c.inner.ServerID(ctx, key) }

// Info implements lock.Client.
func (c *Client) Info() lock.Info { return c.inner.Info() }

type subscription struct {
	lock.Subscription
	c    *Client
	out  chan lock.Message
	stop chan struct{}
	once sync.Once
}

func (s *subscription) Messages() <-chan lock.Message { return s.out }

func (s *subscription) Close() error {
	s.once.Do(func() { close(s.stop) })
	return s.Subscription.Close()
}

// pump forwards the inner subscription's messages, with their faults.
func (s *subscription) pump() {
	defer close(s.out)
	for m := range s.Subscription.Messages() {
		if !m.Subscribed {
			switch a, d := s.c.fault(Message, []string{m.Channel, m.Payload}); a {
			case LoseReply, FailSend:
				continue
			case Stall:
				time.Sleep(d)
			}
		}
		select {
		case s.out <- m:
		case <-s.stop:
			return
		}
	}
}

// IsInjected reports an error that an injected fault caused.
func IsInjected(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && errors.Is(op.Err, syscall.ECONNRESET)
}
