package fixredigo

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gomodule/redigo/redis"
	"github.com/locklint/locklint/analyzer/fix/lock"
)

// Pool returns p as a lock.Client. Each command gets a connection from p
// with the command's context (Pool.GetContext). The value is comparable
// and equal for the same pool, so the waiters of one process queue in
// process however often Pool is called. A nil p gives a nil Client, which
// lock refuses with lock.ErrNilClient.
//
// redis.DoContext ends a command at its context's deadline (redigo closes
// the connection then, and the pool drops it), but Pool.Dial and
// TestOnBorrow are not given the context, so a command that needs a new
// connection can outlast it. For a pool with DialContext and without
// TestOnBorrow, Info().Deadlines is true and commands are sent with
// DoContext. Other pools send with Do, bounded by the connections' own
// read timeout (none by default): the library waits for each command on a
// goroutine of its own and stops waiting at the deadline, and the command
// it stopped waiting for still reports its outcome, so that a token it
// may have set is removed as soon as its reply comes. A command cut off
// by DoContext may still reach the server after the cut (the connection
// is gone, not the bytes already sent); a token it sets then stays until
// its lease ends.
func Pool(p *redis.Pool) lock.Client {
	if p == nil {
		return nil
	}
	return pool{p}
}

// pool serves a *redis.Pool; all of its connections reach one server.
type pool struct{ p *redis.Pool }

func (c pool) Do(ctx context.Context, cmd lock.Command) (any, error) {
	name, args, err := words(cmd)
	if err != nil {
		return nil, err
	}
	conn, err := c.p.GetContext(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return reply(c.send(ctx, conn, name, args...))
}

// Pipeline queues cmds on one connection and then flushes them and reads
// their replies in one call (an empty command name does that in redigo),
// so that the round trip ends at ctx's deadline when Do's does.
func (c pool) Pipeline(ctx context.Context, cmds ...lock.Command) ([]any, error) {
	conn, err := c.p.GetContext(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return pipeline(cmds, conn, func() (any, error) { return c.send(ctx, conn, "") })
}

// send is DoContext on a pool whose commands end at their deadline (see
// Pool), Do otherwise and for a connection that does not take a context
// (redigo's own connections all do).
func (c pool) send(ctx context.Context, conn redis.Conn, name string, args ...any) (any, error) {
	if cc, ok := conn.(redis.ConnWithContext); ok && c.deadlines() {
		return cc.DoContext(ctx, name, args...)
	}
	return conn.Do(name, args...)
}

func (c pool) deadlines() bool { return c.p.DialContext != nil && c.p.TestOnBorrow == nil }

// Subscribe opens a pub/sub connection of the pool's own. Shard channels
// belong to Redis Cluster, which redigo does not serve.
func (c pool) Subscribe(ctx context.Context, sharded bool, channels ...string) (lock.Subscription, error) {
	if sharded {
		return nil, errors.New("fixredigo: sharded pub/sub needs a Cluster client, which redigo does not have")
	}
	conn, err := c.p.GetContext(ctx)
	if err != nil {
		return nil, err
	}
	if _, ok := conn.(redis.ConnWithContext); !ok {
		conn.Close()
		return nil, errors.New("fixredigo: the pool's connections do not take a context, which a subscription needs to be closed")
	}
	psc := redis.PubSubConn{Conn: conn}
	if err := psc.Subscribe(strArgs(channels)...); err != nil {
		psc.Close()
		return nil, err
	}
	sctx, cancel := context.WithCancel(context.Background())
	s := &subscription{psc: psc, ctx: sctx, cancel: cancel, out: make(chan lock.Message, 16)}
	go s.receive()
	return s, nil
}

// ServerID names the pool: a pool gives no address, but all of its
// connections reach the one server (and user) its Dial function chose.
func (c pool) ServerID(context.Context, string) string {
	return fmt.Sprintf("redigo-pool@%p", c.p)
}

func (c pool) Info() lock.Info {
	return lock.Info{Deadlines: c.deadlines()}
}

// Conn returns c as a lock.Client for code that holds a single connection.
// A redigo connection is not safe for concurrent use, so the client sends
// one command (or pipeline) at a time; a command waiting for its turn
// gives up when its context ends. Make the value once and reuse it, as
// with c itself: each call makes a new client, and the library keeps the
// waiters of one process in one queue per client value.
//
// Its Subscribe fails, since one connection cannot also be a subscriber:
// waiters of other processes are not woken by a release but re-check the
// lock on their timers (when its lease ends and at least every
// Backoff.Cap, 500 ms by default). Use Pool where that is too slow.
//
// Commands are sent with Do, not DoContext: redigo closes a connection
// whose DoContext ran out of time, which would end this client for good.
// The library bounds its waits itself (Info().Deadlines is false) and
// learns the outcome of a command it stopped waiting for when the reply
// comes, within the connection's read timeout. A nil c gives a nil Client.
func Conn(c redis.Conn) lock.Client {
	if c == nil {
		return nil
	}
	return &conn{c: c, turn: make(chan struct{}, 1)}
}

type conn struct {
	c    redis.Conn
	turn chan struct{} // holds a token while a command uses c
}

func (c *conn) take(ctx context.Context) error {
	select {
	case c.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("fixredigo: waiting for the connection: %w", ctx.Err())
	}
}

func (c *conn) give() { <-c.turn }

func (c *conn) Do(ctx context.Context, cmd lock.Command) (any, error) {
	name, args, err := words(cmd)
	if err != nil {
		return nil, err
	}
	if err := c.take(ctx); err != nil {
		return nil, err
	}
	defer c.give()
	return reply(c.c.Do(name, args...))
}

func (c *conn) Pipeline(ctx context.Context, cmds ...lock.Command) ([]any, error) {
	if err := c.take(ctx); err != nil {
		return nil, err
	}
	defer c.give()
	return pipeline(cmds, c.c, func() (any, error) { return c.c.Do("") })
}

func (c *conn) Subscribe(context.Context, bool, ...string) (lock.Subscription, error) {
	return nil, errors.New("fixredigo: a single connection cannot also subscribe; waiters re-check on their timers (use Pool to have them woken)")
}

func (c *conn) ServerID(context.Context, string) string {
	return fmt.Sprintf("redigo-conn@%p", c)
}

func (c *conn) Info() lock.Info { return lock.Info{} }

// pipeline sends cmds on conn and reads their replies with flush, which
// sends what is queued and returns the replies as an array.
func pipeline(cmds []lock.Command, conn redis.Conn, flush func() (any, error)) ([]any, error) {
	if len(cmds) == 0 {
		return nil, nil
	}
	for _, cmd := range cmds {
		name, args, err := words(cmd)
		if err != nil {
			return nil, err
		}
		if err := conn.Send(name, args...); err != nil {
			return nil, err
		}
	}
	r, err := flush()
	if err != nil {
		return nil, err
	}
	rs, ok := r.([]any)
	if !ok || len(rs) != len(cmds) {
		return nil, fmt.Errorf("fixredigo: pipeline of %d commands got reply %T", len(cmds), r)
	}
	// An error reply stays in its place as a value; value makes it a
	// *lock.ServerError.
	out := make([]any, len(rs))
	for i, v := range rs {
		out[i] = value(v)
	}
	return out, nil
}

func words(cmd lock.Command) (string, []any, error) {
	v := cmd.Values()
	if len(v) == 0 {
		return "", nil, errors.New("fixredigo: empty command")
	}
	return v[0].(string), v[1:], nil
}

// reply reads a command's outcome as lock.Client.Do returns it: redigo
// returns an error reply as a redis.Error, any other error is the
// connection's.
func reply(v any, err error) (any, error) {
	if err != nil {
		var rerr redis.Error
		if errors.As(err, &rerr) {
			return nil, &lock.ServerError{Err: err}
		}
		return nil, err
	}
	return value(v), nil
}

// value turns redigo's bulk strings ([]byte) into strings, in arrays too.
func value(v any) any {
	switch v := v.(type) {
	case []byte:
		return string(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = value(e)
		}
		return out
	case redis.Error:
		return &lock.ServerError{Err: v}
	}
	return v
}

// subscription is a pool connection in pub/sub mode. One goroutine
// (receive) reads it; writes (Subscribe, Unsubscribe, and the final
// close) take wmu, since redigo allows one reader and one writer at a
// time.
type subscription struct {
	psc    redis.PubSubConn
	ctx    context.Context // ended by Close: the read in progress stops
	cancel context.CancelFunc
	out    chan lock.Message

	wmu    sync.Mutex
	closed bool
}

// receive turns redigo's pub/sub replies into messages until the
// connection fails or Close cancels the read, then closes the
// connection and the channel.
func (s *subscription) receive() {
	defer close(s.out)
	defer s.closeConn()
	for {
		var m lock.Message
		switch r := s.psc.ReceiveContext(s.ctx).(type) {
		case redis.Message:
			m = lock.Message{Channel: r.Channel, Payload: string(r.Data)}
		case redis.Subscription:
			if r.Kind != "subscribe" {
				continue
			}
			m = lock.Message{Channel: r.Channel, Subscribed: true}
		case error:
			return
		default:
			continue
		}
		select {
		case s.out <- m:
		case <-s.ctx.Done():
			return
		}
	}
}

// closeConn returns the connection to the pool, which drops it: a read
// cut off by Close has closed it already, and a failed one has broken it.
func (s *subscription) closeConn() {
	s.cancel()
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.closed = true
	s.psc.Close()
}

var errClosed = errors.New("fixredigo: subscription closed")

func (s *subscription) Subscribe(_ context.Context, channels ...string) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.closed {
		return errClosed
	}
	return s.psc.Subscribe(strArgs(channels)...)
}

func (s *subscription) Unsubscribe(_ context.Context, channels ...string) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.closed {
		return errClosed
	}
	return s.psc.Unsubscribe(strArgs(channels)...)
}

func (s *subscription) Messages() <-chan lock.Message { return s.out }

// Close cancels the read in progress, which closes the connection; the
// receiving goroutine then closes Messages.
func (s *subscription) Close() error {
	s.cancel()
	return nil
}

// strArgs passes channel names to PubSubConn, which takes ...any.
func strArgs(s []string) []any {
	args := make([]any, len(s))
	for i, w := range s {
		args[i] = w
	}
	return args
}
