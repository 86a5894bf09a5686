package lock

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Client is what the library needs of a Redis client: commands routed by
// their key, a pub/sub connection for wake-ups, and two facts about the
// client. Package fix makes one of a go-redis v9 client; fixredigo,
// fixrueidis, fixvalkey and fixgoredis8 make one of theirs.
//
// A Client is safe for concurrent use. Values that compare equal talk to
// the same servers: the library keeps the waiters of one process in one
// queue per client value and key (a value that is not comparable gets a
// queue of its own per Obtain, and its waiters poll the server instead of
// queueing in process).
type Client interface {
	// Do sends cmd to the server that serves cmd.Keys[0] and returns the
	// reply: nil for a null reply, int64 for an integer, string for a
	// simple or bulk string, []any of those for an array. An error reply
	// is returned as a *ServerError (the client's own error inside), so
	// that it is told apart from a transport error, after which the
	// command may have run.
	Do(ctx context.Context, cmd Command) (any, error)

	// Pipeline sends cmds in order on one connection to the server that
	// serves cmds[0].Keys[0], in one round trip, and returns their
	// replies as Do would, an error reply as a *ServerError in its
	// place. A keyless command among them (WAIT) runs on that connection,
	// so it applies to the writes before it. err is a transport error,
	// after which any of the commands may have run.
	Pipeline(ctx context.Context, cmds ...Command) ([]any, error)

	// Subscribe opens a pub/sub connection of its own, subscribed to
	// channels; with sharded, to shard channels (SSUBSCRIBE), which all
	// lie in one Cluster slot and are served by its master.
	Subscribe(ctx context.Context, sharded bool, channels ...string) (Subscription, error)

	// ServerID names the server that serves key and the user the client
	// logs in as, or is "" when the client cannot tell. The library
	// learns which command forms a server accepts (DELEX, SET IFEQ, SET
	// NX GET) from its first replies and keeps that per ID.
	ServerID(ctx context.Context, key string) string

	// Info describes the client.
	Info() Info
}

// Info describes a Client.
type Info struct {
	// Cluster is true for a Redis Cluster client: wake-up channels are
	// then shard channels (SSUBSCRIBE, SPUBLISH) in the lock's slot.
	Cluster bool
	// Deadlines is true when a command ends at its context's deadline.
	// Otherwise, and for a context that can be cancelled (a cancellation
	// does not end a command on any client), the library waits for the
	// command on a goroutine of its own and stops waiting when the context
	// ends, so that its bounds hold.
	Deadlines bool
}

// Command is one command: Head (its name and any arguments before the
// keys), Keys, then Args, so that a cluster client can route it by
// Keys[0] and a client that builds commands by kind can tell them apart.
type Command struct {
	Head []string
	Keys []string
	Args []string

	// The words as interface values, made with them by the library's
	// commands, for Values; nil in a Command made elsewhere.
	values []any
}

// Values returns the command's words in order as interface values, for
// clients that take their arguments as ...any. A command the library made
// has them made already, with its words, and returns them while its words
// are the ones they were made of (a wrapper may replace a key): do not
// modify the slice. The words every command of the library uses, its
// scripts' SHA1s among them, are boxed without an allocation.
func (c Command) Values() []any {
	if c.madeWith() {
		return c.values
	}
	v := make([]any, 0, len(c.Head)+len(c.Keys)+len(c.Args))
	for _, part := range [3][]string{c.Head, c.Keys, c.Args} {
		for _, w := range part {
			v = append(v, word(w))
		}
	}
	return v
}

// madeWith reports whether c.values are c's words.
func (c Command) madeWith() bool {
	if c.values == nil || len(c.values) != len(c.Head)+len(c.Keys)+len(c.Args) {
		return false
	}
	i := 0
	for _, part := range [3][]string{c.Head, c.Keys, c.Args} {
		for _, w := range part {
			if v, ok := c.values[i].(string); !ok || v != w {
				return false
			}
			i++
		}
	}
	return true
}

// command returns a Command of h head words, then k keys, then the rest
// of w as arguments, its words copied and boxed in one allocation, with
// each part capped so that a client appending to one cannot write into
// the next.
func command(h, k int, w ...string) Command {
	return commandOf(nil, h, k, w...)
}

// commandOf is command with the words of lw boxed already.
func commandOf(lw *lockWords, h, k int, w ...string) Command {
	b := newWords(len(w))
	copy(b.w, w)
	for i, x := range w {
		b.v[i] = lw.word(x)
	}
	return b.command(h, k)
}

// lockWords are an acquisition's key and token as interface values, made
// once for all the commands it and its lock send: a string boxed as an
// interface value is an allocation of its own, and every command of a
// lock has both words.
type lockWords struct{ key, token any }

// set boxes key and token once.
func (lw *lockWords) set(key, token string) {
	lw.key, lw.token = key, token
}

// word is the package's word, reusing the interface values of lw (which
// may be nil).
func (lw *lockWords) word(w string) any {
	if lw != nil {
		if s, _ := lw.token.(string); s == w && s != "" {
			return lw.token
		}
		if s, _ := lw.key.(string); s == w && s != "" {
			return lw.key
		}
	}
	return word(w)
}

// words is a command's words and their interface values.
type words struct {
	w []string
	v []any
}

// newWords makes room for n words and their values, in one allocation
// of their size for a command of up to 8 words (every command of an
// uncontended cycle). Bytes count as well as allocations: on one CPU, the
// collector's work for a cycle's garbage was most of what the client
// spent beyond the hand-written floor's cycle.
func newWords(n int) words {
	switch {
	case n <= 4:
		b := new(struct {
			w [4]string
			v [4]any
		})
		return words{b.w[:n:n], b.v[:n:n]}
	case n == 5:
		b := new(struct {
			w [5]string
			v [5]any
		})
		return words{b.w[:], b.v[:]}
	case n == 6:
		b := new(struct {
			w [6]string
			v [6]any
		})
		return words{b.w[:], b.v[:]}
	case n == 7:
		b := new(struct {
			w [7]string
			v [7]any
		})
		return words{b.w[:], b.v[:]}
	case n == 8:
		b := new(struct {
			w [8]string
			v [8]any
		})
		return words{b.w[:], b.v[:]}
	}
	return words{make([]string, n), make([]any, n)}
}

func (b words) command(h, k int) Command {
	w := b.w
	return Command{Head: w[:h:h], Keys: w[h : h+k : h+k], Args: w[h+k:], values: b.v}
}

// word returns w as an interface value, shared for the constant words and
// the last lease length's (msWord).
func word(w string) any {
	switch w {
	case "SET":
		return "SET"
	case "GET":
		return "GET"
	case "NX":
		return "NX"
	case "PX":
		return "PX"
	case "IFEQ":
		return "IFEQ"
	case "DELEX":
		return "DELEX"
	case "EVALSHA":
		return "EVALSHA"
	case "EVAL":
		return "EVAL"
	case "WAIT":
		return "WAIT"
	case "0":
		return "0"
	case "1":
		return "1"
	case "2":
		return "2"
	case "3":
		return "3"
	case "4":
		return "4"
	}
	if len(w) == sha1.Size*2 {
		for _, s := range scripts {
			if w == s.sha {
				return s.shaWord
			}
		}
	}
	if m := lastMs.Load(); m != nil && w == m.s {
		return m.v
	}
	return w
}

// Subscription is a pub/sub connection opened by Client.Subscribe. The
// library uses it from one goroutine.
type Subscription interface {
	// Subscribe adds channels (shard channels if the connection has them).
	Subscribe(ctx context.Context, channels ...string) error
	// Unsubscribe drops channels.
	Unsubscribe(ctx context.Context, channels ...string) error
	// Messages delivers the messages of the subscribed channels and a
	// confirmation for each channel subscribed. It is closed when the
	// connection ends, after Close or when the connection breaks.
	Messages() <-chan Message
	// Close ends the connection.
	Close() error
}

// Message is one delivery on a Subscription.
type Message struct {
	Channel string
	Payload string
	// Subscribed marks the confirmation that Channel is now subscribed:
	// a message sent before it may have been missed.
	Subscribed bool
}

// ServerError is an error reply from the server. Err is the client's own
// error value, so errors.As still finds the client's type. Its text is the
// server's, with or without the generic "ERR " prefix (rueidis and
// valkey-go drop it); other codes (NOSCRIPT, NOPERM, ...) stay in front.
type ServerError struct {
	Err error
}

func (e *ServerError) Error() string { return e.Err.Error() }
func (e *ServerError) Unwrap() error { return e.Err }

// serverError returns the message of an error reply.
func serverError(err error) (string, bool) {
	if err == nil {
		return "", false
	}
	var se *ServerError
	if !errors.As(err, &se) {
		return "", false
	}
	return se.Error(), true
}

func isNilClient(c Client) bool {
	if c == nil {
		return true
	}
	v := reflect.ValueOf(c)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// comparable reports whether c can key the process's per-client state.
func comparableClient(c Client) bool {
	return reflect.ValueOf(c).Comparable()
}

// A script is Lua run by its SHA1 (EVALSHA), and by its text when the
// server does not have it cached yet (NOSCRIPT): one round trip once it
// is loaded.
type script struct {
	src     string
	sha     string
	shaWord any // sha as an interface value, made once for word
	srcWord any // src as one
}

// scripts lists every script, for word. newScript is only called to
// initialize package variables, so it needs no lock.
var scripts []*script

func newScript(src string) *script {
	h := sha1.Sum([]byte(src))
	s := &script{src: src, sha: hex.EncodeToString(h[:])}
	s.shaWord, s.srcWord = s.sha, s.src
	scripts = append(scripts, s)
	return s
}

// command is the script's EVALSHA of keys and args (its EVAL with eval),
// in one allocation that holds copies of them and their boxed values;
// those of lw (nil or not) are reused.
func (s *script) command(eval bool, lw *lockWords, keys, args []string) Command {
	b := newWords(3 + len(keys) + len(args))
	b.w[0], b.v[0], b.w[1], b.v[1] = "EVALSHA", "EVALSHA", s.sha, s.shaWord
	if eval {
		b.w[0], b.v[0], b.w[1], b.v[1] = "EVAL", "EVAL", s.src, s.srcWord
	}
	b.w[2] = strconv.Itoa(len(keys))
	b.v[2] = word(b.w[2])
	copy(b.w[3:], keys)
	copy(b.w[3+len(keys):], args)
	for i := 3; i < len(b.w); i++ {
		b.v[i] = lw.word(b.w[i])
	}
	return b.command(3, len(keys))
}

// isNoScript reports the reply of an EVALSHA whose script the server does
// not have.
func isNoScript(err error) bool {
	msg, ok := serverError(err)
	return ok && strings.HasPrefix(msg, "NOSCRIPT")
}

func (s *script) run(ctx context.Context, c Client, lw *lockWords, keys []string, args ...string) (any, error) {
	r, err := c.Do(ctx, s.command(false, lw, keys, args))
	if isNoScript(err) {
		r, err = c.Do(ctx, s.command(true, lw, keys, args))
	}
	return r, err
}

// ints runs the script and reads its reply as an array of integers.
func (s *script) ints(ctx context.Context, c Client, keys []string, args ...string) ([]int64, error) {
	r, err := s.run(ctx, c, nil, keys, args...)
	if err != nil {
		return nil, err
	}
	return int64s(r)
}

// int64s reads a script's reply as an array of integers.
func int64s(r any) ([]int64, error) {
	a, ok := r.([]any)
	if !ok {
		return nil, fmt.Errorf("script reply: got %T, want an array", r)
	}
	res := make([]int64, len(a))
	for i, v := range a {
		n, err := integer(v)
		if err != nil {
			return nil, err
		}
		res[i] = n
	}
	return res, nil
}

// int runs the script and reads its reply as an integer.
func (s *script) int(ctx context.Context, c Client, lw *lockWords, keys []string, args ...string) (int64, error) {
	r, err := s.run(ctx, c, lw, keys, args...)
	if err != nil {
		return 0, err
	}
	return integer(r)
}

func integer(v any) (int64, error) {
	switch v := v.(type) {
	case int64:
		return v, nil
	case nil:
		// Lua's false is a null reply.
		return 0, nil
	}
	return 0, fmt.Errorf("script reply: got %T, want an integer", v)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// msWord returns d in milliseconds as a command word. A process uses few
// lease lengths, most often one: the last one's word is kept, boxed for
// word too, so that an attempt or a renewal does not format it each time.
func msWord(d time.Duration) string {
	ms := d.Milliseconds()
	if m := lastMs.Load(); m != nil && m.ms == ms {
		return m.s
	}
	m := &msWordOf{ms: ms, s: itoa(ms)}
	m.v = m.s
	lastMs.Store(m)
	return m.s
}

type msWordOf struct {
	ms int64
	s  string
	v  any // s as an interface value
}

var lastMs atomic.Pointer[msWordOf]
