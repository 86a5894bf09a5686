package behaviour_test

import (
	"errors"
	"testing"

	"github.com/locklint/locklint/analyzer/fix/fixrueidis"
	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/redis/rueidis"
)

func init() {
	register(clientKind{
		name: "rueidis",
		standalone: func(t *testing.T, addr string) lock.Client {
			c := newRueidis(t, rueidis.ClientOption{InitAddress: []string{addr}})
			if c.Mode() == rueidis.ClientModeCluster {
				// miniredis answers CLUSTER SLOTS as a one-node cluster at
				// its own address, so rueidis would go past the test's
				// proxy to it: the server is standalone, so say so.
				c = newRueidis(t, rueidis.ClientOption{InitAddress: []string{addr}, ForceSingleClient: true})
			}
			return fixrueidis.Client(c)
		},
		cluster: func(t *testing.T, addrs []string) lock.Client {
			return fixrueidis.Client(newRueidis(t, rueidis.ClientOption{InitAddress: addrs}))
		},
	})
}

// newRueidis builds a client with opt, and without client-side caching
// when the server has no CLIENT TRACKING (miniredis), which rueidis
// reports as ErrNoCache: the library does not use the cache.
func newRueidis(t *testing.T, opt rueidis.ClientOption) rueidis.Client {
	c, err := rueidis.NewClient(opt)
	if errors.Is(err, rueidis.ErrNoCache) {
		opt.DisableCache = true
		c, err = rueidis.NewClient(opt)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}
