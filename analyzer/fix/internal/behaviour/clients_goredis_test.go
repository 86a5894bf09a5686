package behaviour_test

import (
	"testing"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/redis/go-redis/v9"
)

func init() {
	register(clientKind{
		name: "go-redis v9",
		standalone: func(t *testing.T, addr string) lock.Client {
			c := redis.NewClient(&redis.Options{Addr: addr})
			t.Cleanup(func() { c.Close() })
			return fix.Client(c)
		},
		cluster: func(t *testing.T, addrs []string) lock.Client {
			c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
			t.Cleanup(func() { c.Close() })
			return fix.Client(c)
		},
	})
}
