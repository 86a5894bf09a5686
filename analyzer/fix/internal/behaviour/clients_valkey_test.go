package behaviour_test

import (
	"errors"
	"testing"

	"github.com/locklint/locklint/analyzer/fix/fixvalkey"
	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/valkey-io/valkey-go"
)

func init() {
	register(clientKind{
		name: "valkey-go",
		standalone: func(t *testing.T, addr string) lock.Client {
			c := newValkey(t, valkey.ClientOption{InitAddress: []string{addr}})
			if c.Mode() == valkey.ClientModeCluster {
				// miniredis answers CLUSTER SLOTS as a one-node cluster at
				// its own address, so valkey-go would go past the test's
				// proxy to it: the server is standalone, so say so.
				c = newValkey(t, valkey.ClientOption{InitAddress: []string{addr}, ForceSingleClient: true})
			}
			return fixvalkey.Client(c)
		},
		cluster: func(t *testing.T, addrs []string) lock.Client {
			return fixvalkey.Client(newValkey(t, valkey.ClientOption{InitAddress: addrs}))
		},
	})
}

// newValkey builds a client with opt, and without client-side caching
// when the server has no CLIENT TRACKING (miniredis), which valkey-go
// reports as ErrNoCache: the library does not use the cache.
func newValkey(t *testing.T, opt valkey.ClientOption) valkey.Client {
	c, err := valkey.NewClient(opt)
	if errors.Is(err, valkey.ErrNoCache) {
		opt.DisableCache = true
		c, err = valkey.NewClient(opt)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}
