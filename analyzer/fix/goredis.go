package fix

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/redis/go-redis/v9"
)

// Client returns c as a lock.Client, for code that also serves other
// clients through package lock. Obtain, Release, Refresh and Do take a
// go-redis client directly. Equal clients make equal values; a nil c
// gives nil, which package lock refuses with ErrNilClient.
func Client(c redis.UniversalClient) lock.Client { return handle(c) }

// goRedis serves a go-redis v9 client: *redis.Client (failover clients
// too), *redis.ClusterClient and wrappers of them.
type goRedis struct{ c redis.UniversalClient }

// goRedisClient is goRedis for a *redis.Client, the usual client: a
// struct of one pointer is an interface value without an allocation,
// where a goRedis (an interface inside) is boxed, 16 bytes, for every
// Obtain, Release or Refresh. Equal clients make equal values of it too.
type goRedisClient struct{ c *redis.Client }

func (g goRedisClient) Do(ctx context.Context, cmd lock.Command) (any, error) {
	return goRedis{g.c}.Do(ctx, cmd)
}

func (g goRedisClient) Pipeline(ctx context.Context, cmds ...lock.Command) ([]any, error) {
	return goRedis{g.c}.Pipeline(ctx, cmds...)
}

func (g goRedisClient) Subscribe(ctx context.Context, sharded bool, channels ...string) (lock.Subscription, error) {
	return goRedis{g.c}.Subscribe(ctx, sharded, channels...)
}

func (g goRedisClient) ServerID(ctx context.Context, key string) string {
	return goRedis{g.c}.ServerID(ctx, key)
}

func (g goRedisClient) Info() lock.Info { return goRedis{g.c}.Info() }

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
	// One step: without it a Cluster client asks the server for COMMAND
	// (which a restricted user may not run) to find out.
	c.SetStepCount(1)
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
			return nil, errors.New("fix: a Cluster pipeline needs a key in its first command")
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
	return v, nil
}

func (g goRedis) Subscribe(ctx context.Context, sharded bool, channels ...string) (lock.Subscription, error) {
	var ps *redis.PubSub
	if sharded {
		ps = g.c.SSubscribe(ctx, channels...)
	} else {
		ps = g.c.Subscribe(ctx, channels...)
	}
	s := &goRedisPubSub{ps: ps, sharded: sharded, out: make(chan lock.Message, 16)}
	go s.forward(ps.ChannelWithSubscriptions())
	return s, nil
}

type goRedisPubSub struct {
	ps      *redis.PubSub
	sharded bool
	out     chan lock.Message
}

// forward turns go-redis's messages into the library's until the PubSub
// is closed. go-redis re-subscribes after a reconnection and delivers the
// confirmations again.
func (s *goRedisPubSub) forward(in <-chan any) {
	defer close(s.out)
	for m := range in {
		switch m := m.(type) {
		case *redis.Message:
			s.out <- lock.Message{Channel: m.Channel, Payload: m.Payload}
		case *redis.Subscription:
			if m.Kind == "subscribe" || m.Kind == "ssubscribe" {
				s.out <- lock.Message{Channel: m.Channel, Subscribed: true}
			}
		}
	}
}

func (s *goRedisPubSub) Subscribe(ctx context.Context, channels ...string) error {
	if s.sharded {
		return s.ps.SSubscribe(ctx, channels...)
	}
	return s.ps.Subscribe(ctx, channels...)
}

func (s *goRedisPubSub) Unsubscribe(ctx context.Context, channels ...string) error {
	if s.sharded {
		return s.ps.SUnsubscribe(ctx, channels...)
	}
	return s.ps.Unsubscribe(ctx, channels...)
}

func (s *goRedisPubSub) Messages() <-chan lock.Message { return s.out }

func (s *goRedisPubSub) Close() error {
	err := s.ps.Close()
	// forward ends when go-redis closes its channel; drain so that it
	// is not blocked on a message nobody reads.
	go func() {
		for range s.out {
		}
	}()
	return err
}

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
	case *redis.Ring:
		shard, err := c.GetShardClientForKey(key)
		if err != nil {
			return ""
		}
		opt = shard.Options()
	case interface{ Options() *redis.Options }:
		// *redis.Client, failover clients and wrappers that embed one.
		opt = c.Options()
	}
	if opt == nil {
		return ""
	}
	// A client's options do not change, so their id is worked out once.
	if id, ok := serverIDs.Load(opt); ok {
		return id.(string)
	}
	id := opt.Username + "@" + opt.Addr
	if n := serverIDCount.Load(); n < maxServerIDs {
		if _, loaded := serverIDs.LoadOrStore(opt, id); !loaded {
			serverIDCount.Add(1)
		}
	}
	return id
}

// serverIDs caches the server id of a client's options, keyed by their
// pointer (every client keeps its own copy of the options it was made
// with), for up to maxServerIDs options.
var (
	serverIDs     sync.Map // *redis.Options -> string
	serverIDCount atomic.Int64
)

const maxServerIDs = 4096

// Info reports a Cluster client as such, and whether the client bounds
// socket I/O by the context's deadline (ContextTimeoutEnabled); go-redis
// otherwise waits for its own ReadTimeout (3 s or 5 s by default, by
// version) and again for each of its retries.
func (g goRedis) Info() lock.Info {
	switch c := g.c.(type) {
	case *redis.ClusterClient:
		return lock.Info{Cluster: true, Deadlines: c.Options().ContextTimeoutEnabled}
	case *redis.Ring:
		return lock.Info{Deadlines: c.Options().ContextTimeoutEnabled}
	case interface{ Options() *redis.Options }:
		return lock.Info{Deadlines: c.Options().ContextTimeoutEnabled}
	}
	return lock.Info{}
}
