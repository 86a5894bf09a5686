package behaviour_test

import (
	"context"
	"testing"

	"github.com/gomodule/redigo/redis"
	"github.com/locklint/locklint/analyzer/fix/fixredigo"
	"github.com/locklint/locklint/analyzer/fix/lock"
)

func init() {
	register(clientKind{
		name: "redigo pool",
		standalone: func(t *testing.T, addr string) lock.Client {
			p := &redis.Pool{Dial: func() (redis.Conn, error) { return redis.Dial("tcp", addr) }, MaxIdle: 8}
			t.Cleanup(func() { p.Close() })
			return fixredigo.Pool(p)
		},
	})
	// A pool that dials with the command's context: its commands end at
	// their deadline (Info().Deadlines).
	register(clientKind{
		name: "redigo pool, DialContext",
		standalone: func(t *testing.T, addr string) lock.Client {
			p := &redis.Pool{DialContext: func(ctx context.Context) (redis.Conn, error) { return redis.DialContext(ctx, "tcp", addr) }, MaxIdle: 8}
			t.Cleanup(func() { p.Close() })
			return fixredigo.Pool(p)
		},
	})
	register(clientKind{
		name: "redigo conn",
		standalone: func(t *testing.T, addr string) lock.Client {
			c, err := redis.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return fixredigo.Conn(c)
		},
		oneConn: true,
	})
}
