package fixgoredis8

import (
	"context"
	"errors"

	"github.com/go-redis/redis/v8"
	"github.com/locklint/locklint/analyzer/fix/lock"
)

// ErrRing is what every command of a Client made of a *redis.Ring
// returns. A Ring remaps keys when a shard goes down and comes back, so
// two callers can each hold "the" lock, on different shards.
var ErrRing = errors.New("fixgoredis8: a redis.Ring cannot hold a lock: use a Client, a failover client or a ClusterClient")

// Client returns c as a lock.Client. Equal clients make equal values, so
// the waiters of one process queue in process however often Client is
// called. A nil c gives a nil Client, which lock refuses with
// lock.ErrNilClient; a *redis.Ring gives one that fails with ErrRing.
//
// go-redis v8 sets every socket deadline from the command's context
// (the earlier of its deadline and ReadTimeout) and does not start a
// retry once the context is done, so a *redis.Client's commands end at
// their deadline: Info().Deadlines is true. A ClusterClient also loads
// the COMMAND table with its own context, not the command's, until that
// succeeds once; its Info().Deadlines is false, and the library waits for
// each command on a goroutine of its own and stops waiting at the
// deadline. A command cut off at its deadline may still reach the server
// (go-redis drops the connection, not the bytes already sent); a token
// it sets then stays until its lease ends.
func Client(c redis.UniversalClient) lock.Client {
	switch c := c.(type) {
	case nil:
		return nil
	case *redis.Ring:
		if c == nil {
			return nil
		}
		return ring{c}
	case *redis.Client:
		if c == nil {
			return nil
		}
	case *redis.ClusterClient:
		if c == nil {
			return nil
		}
	}
	return goRedis{c}
}

type goRedis struct{ c redis.UniversalClient }

func (g goRedis) Do(ctx context.Context, cmd lock.Command) (any, error) {
	c := newCmd(ctx, cmd)
	_ = g.c.Process(ctx, c)
	return reply(c)
}

func newCmd(ctx context.Context, cmd lock.Command) *redis.Cmd {
	c := redis.NewCmd(ctx, cmd.Values()...)
	if len(cmd.Keys) > 0 {
		// A Cluster client routes by this key, whatever the command.
		c.SetFirstKeyPos(int8(len(cmd.Head)))
	}
	return c
}

// Pipeline runs cmds on one connection: a Cluster client's pipeline would
// send a keyless command to any node, so the commands go to the node of
// the first key, through its own client.
func (g goRedis) Pipeline(ctx context.Context, cmds ...lock.Command) ([]any, error) {
	var pipe redis.Pipeliner
	switch c := g.c.(type) {
	case *redis.ClusterClient:
		if len(cmds) == 0 || len(cmds[0].Keys) == 0 {
			return nil, errors.New("fixgoredis8: a Cluster pipeline needs a key in its first command")
		}
		node, err := c.MasterForKey(ctx, cmds[0].Keys[0])
		if err != nil {
			return nil, err
		}
		pipe = node.Pipeline()
	default:
		pipe = g.c.Pipeline()
	}
	rcs := make([]*redis.Cmd, len(cmds))
	for i, cmd := range cmds {
		rcs[i] = newCmd(ctx, cmd)
		_ = pipe.Process(ctx, rcs[i])
	}
	if _, err := pipe.Exec(ctx); err != nil {
		var rerr redis.Error
		if !errors.As(err, &rerr) {
			return nil, err
		}
	}
	out := make([]any, len(cmds))
	for i, c := range rcs {
		v, err := reply(c)
		if err != nil {
			if _, ok := err.(*lock.ServerError); !ok {
				return nil, err
			}
			out[i] = err
			continue
		}
		out[i] = v
	}
	return out, nil
}

// reply reads a command's outcome as lock.Client.Do returns it.
func reply(c *redis.Cmd) (any, error) {
	v, err := c.Result()
	if err != nil {
		if errors.Is(err, redis.Nil) {
			return nil, nil
		}
		var rerr redis.Error
		if errors.As(err, &rerr) {
			return nil, &lock.ServerError{Err: err}
		}
		return nil, err
	}
	return value(v), nil
}

// value makes an error reply inside an array a *lock.ServerError.
func value(v any) any {
	switch v := v.(type) {
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

// Subscribe opens a PubSub. go-redis v8 has no SSUBSCRIBE, so a sharded
// subscription (asked of a Cluster client) fails, and the library's
// waiters re-check on their timers instead.
func (g goRedis) Subscribe(ctx context.Context, sharded bool, channels ...string) (lock.Subscription, error) {
	if sharded {
		return nil, errors.New("fixgoredis8: go-redis v8 has no sharded pub/sub (SSUBSCRIBE)")
	}
	ps := g.c.Subscribe(ctx, channels...)
	s := &pubSub{ps: ps, out: make(chan lock.Message, 16)}
	go s.forward(ps.ChannelWithSubscriptions(ctx, 100))
	return s, nil
}

type pubSub struct {
	ps  *redis.PubSub
	out chan lock.Message
}

// forward turns go-redis's messages into the library's until the PubSub
// is closed. go-redis re-subscribes after a reconnection and delivers the
// confirmations again.
func (s *pubSub) forward(in <-chan any) {
	defer close(s.out)
	for m := range in {
		switch m := m.(type) {
		case *redis.Message:
			s.out <- lock.Message{Channel: m.Channel, Payload: m.Payload}
		case *redis.Subscription:
			if m.Kind == "subscribe" {
				s.out <- lock.Message{Channel: m.Channel, Subscribed: true}
			}
		}
	}
}

func (s *pubSub) Subscribe(ctx context.Context, channels ...string) error {
	return s.ps.Subscribe(ctx, channels...)
}

func (s *pubSub) Unsubscribe(ctx context.Context, channels ...string) error {
	return s.ps.Unsubscribe(ctx, channels...)
}

func (s *pubSub) Messages() <-chan lock.Message { return s.out }

func (s *pubSub) Close() error {
	err := s.ps.Close()
	// forward ends when go-redis closes its channel; drain so that it
	// is not blocked on a message nobody reads.
	go func() {
		for range s.out {
		}
	}()
	return err
}

// ServerID is the user and address of the server that serves key.
func (g goRedis) ServerID(ctx context.Context, key string) string {
	var opt *redis.Options
	switch c := g.c.(type) {
	case *redis.ClusterClient:
		// Uses the client's cached slot map; it only talks to the cluster
		// when the map has not been loaded yet, as the command itself would.
		node, err := c.MasterForKey(ctx, key)
		if err != nil {
			return ""
		}
		opt = node.Options()
	case interface{ Options() *redis.Options }:
		// *redis.Client, failover clients and wrappers that embed one.
		opt = c.Options()
	}
	if opt == nil {
		return ""
	}
	return opt.Username + "@" + opt.Addr
}

func (g goRedis) Info() lock.Info {
	if _, ok := g.c.(*redis.ClusterClient); ok {
		return lock.Info{Cluster: true}
	}
	return lock.Info{Deadlines: true}
}

// ring is a *redis.Ring, which cannot hold a lock: everything fails with
// ErrRing, before anything is sent.
type ring struct{ r *redis.Ring }

func (ring) Do(context.Context, lock.Command) (any, error) { return nil, ErrRing }

func (ring) Pipeline(context.Context, ...lock.Command) ([]any, error) { return nil, ErrRing }

func (ring) Subscribe(context.Context, bool, ...string) (lock.Subscription, error) {
	return nil, ErrRing
}

func (ring) ServerID(context.Context, string) string { return "" }

// Info says that commands end at their deadline: they end at once.
func (ring) Info() lock.Info { return lock.Info{Deadlines: true} }
