package behaviour_test

import (
	"context"
	"strings"
	"testing"

	"github.com/go-redis/redis/v8"
	"github.com/locklint/locklint/analyzer/fix/fixgoredis8"
	"github.com/locklint/locklint/analyzer/fix/lock"
	redis9 "github.com/redis/go-redis/v9"
)

func init() {
	register(clientKind{
		name: "go-redis v8",
		standalone: func(t *testing.T, addr string) lock.Client {
			c := redis.NewClient(&redis.Options{Addr: addr})
			t.Cleanup(func() { c.Close() })
			return fixgoredis8.Client(c)
		},
		cluster: func(t *testing.T, addrs []string) lock.Client {
			c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
			t.Cleanup(func() { c.Close() })
			// v8.11.5 reads CLUSTER SLOTS as it was before Redis 7.0, which
			// added a fourth element per node: with default options its
			// ClusterClient fails every command on a newer cluster. Such a
			// service gives it the slots itself (ClusterSlots), as here.
			if err := c.Ping(context.Background()).Err(); err != nil && strings.Contains(err.Error(), "elements in cluster info address") {
				t.Logf("go-redis v8 with default options: %v; reading the slots with ClusterSlots", err)
				c = redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs, ClusterSlots: clusterSlots(t, addrs)})
				t.Cleanup(func() { c.Close() })
			}
			return fixgoredis8.Client(c)
		},
	})
}

// clusterSlots reads the cluster's slots through go-redis v9, for a v8
// ClusterClient that cannot parse them.
func clusterSlots(t *testing.T, addrs []string) func(context.Context) ([]redis.ClusterSlot, error) {
	admin := redis9.NewClusterClient(&redis9.ClusterOptions{Addrs: addrs})
	t.Cleanup(func() { admin.Close() })
	return func(ctx context.Context) ([]redis.ClusterSlot, error) {
		//lint:ignore SA1019 v8's ClusterSlots option takes CLUSTER SLOTS's shape, not CLUSTER SHARDS's.
		slots, err := admin.ClusterSlots(ctx).Result()
		if err != nil {
			return nil, err
		}
		out := make([]redis.ClusterSlot, len(slots))
		for i, s := range slots {
			out[i] = redis.ClusterSlot{Start: s.Start, End: s.End}
			for _, n := range s.Nodes {
				out[i].Nodes = append(out[i].Nodes, redis.ClusterNode{ID: n.ID, Addr: n.Addr})
			}
		}
		return out, nil
	}
}
