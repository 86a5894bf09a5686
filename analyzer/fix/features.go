package fix

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/redis/go-redis/v9"
)

// feature is a command form that only newer servers accept.
type feature int

const (
	featDELEX    feature = iota // DELEX key IFEQ value (Redis 8.4)
	featSetIFEQ                 // SET key value IFEQ value (Redis 8.4)
	featSetNXGet                // SET key value NX GET (Redis 7.0)
	numFeatures
)

// serverFeatures records, per feature, 0 while unknown, 1 when the server
// accepted the form and 2 when it rejected it.
type serverFeatures [numFeatures]atomic.Uint32

// Support is learnt from the first reply and kept per server, named by its
// address and the user the client logs in as (an ACL can refuse a command
// the server has), and per node for Cluster and Ring clients, because a
// rolling upgrade can leave nodes of one deployment on different versions.
// Keying by address rather than by client value keeps no client alive and
// serves wrapper types too. A wrong entry costs a round trip, never
// correctness: a server that later gains a command keeps being served by
// the script, and one that loses it answers "unknown command", which
// flips the entry back.
var (
	featureCache   sync.Map // server id -> *serverFeatures
	featureServers atomic.Int64
)

// maxFeatureServers bounds the cache; servers beyond it are not cached and
// pay the detection on every call.
const maxFeatureServers = 4096

// featuresFor returns the cache entry for the server that serves key, or
// nil when the client does not say which server that is.
func featuresFor(ctx context.Context, client redis.UniversalClient, key string) *serverFeatures {
	id := serverID(ctx, client, key)
	if id == "" {
		return nil
	}
	if f, ok := featureCache.Load(id); ok {
		return f.(*serverFeatures)
	}
	if featureServers.Load() >= maxFeatureServers {
		return nil
	}
	f, loaded := featureCache.LoadOrStore(id, new(serverFeatures))
	if !loaded {
		featureServers.Add(1)
	}
	return f.(*serverFeatures)
}

func serverID(ctx context.Context, client redis.UniversalClient, key string) string {
	var opt *redis.Options
	switch c := client.(type) {
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
	if featureServers.Load() < maxFeatureServers {
		serverIDs.Store(opt, id)
	}
	return id
}

// serverIDs caches the server id of a client's options, keyed by their
// pointer (every client keeps its own copy of the options it was made
// with); bounded like featureCache.
var serverIDs sync.Map // *redis.Options -> string

// has reports whether f may be tried: it is known to work, or unknown.
func (s *serverFeatures) has(f feature) bool {
	return s == nil || s[f].Load() != 2
}

func (s *serverFeatures) learn(f feature, ok bool) {
	if s == nil {
		return
	}
	v := uint32(2)
	if ok {
		v = 1
	}
	s[f].Store(v)
}

// honoursContext reports whether the client bounds socket I/O by the
// context's deadline (ContextTimeoutEnabled). go-redis otherwise waits for
// its own ReadTimeout (3 s or 5 s by default, by version) and again for
// each of its retries.
func honoursContext(client redis.UniversalClient) bool {
	switch c := client.(type) {
	case *redis.ClusterClient:
		return c.Options().ContextTimeoutEnabled
	case *redis.Ring:
		return c.Options().ContextTimeoutEnabled
	case interface{ Options() *redis.Options }:
		return c.Options().ContextTimeoutEnabled
	}
	return false
}
