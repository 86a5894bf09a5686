package lock

import (
	"context"
	"sync"
	"sync/atomic"
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
// serves wrapper types too. The client names the server (Client.ServerID). A wrong entry costs a round trip, never
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
func featuresFor(ctx context.Context, client Client, key string) *serverFeatures {
	id := client.ServerID(ctx, key)
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

// has reports whether f may be tried: it is known to work, or unknown.
func (s *serverFeatures) has(f feature) bool {
	return s == nil || s[f].Load() != 2
}

// known reports whether f is known to work. A command sent with a WAIT
// after it tries only known forms: a rejected one would leave the WAIT to
// block for its whole timeout, and the fallback to wait once more.
func (s *serverFeatures) known(f feature) bool {
	return s != nil && s[f].Load() == 1
}

// tries reports whether f may be tried by a command that rep's WAIT
// follows.
func (s *serverFeatures) tries(f feature, rep replicas) bool {
	if rep.n == 0 {
		return s.has(f)
	}
	return s.known(f)
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

// honoursContext reports whether a command the client sends under ctx
// ends when ctx does: ctx never ends, or it ends only at its deadline and
// the client's commands end at theirs. No client aborts socket I/O on a
// cancellation alone, so a context that can be cancelled (before its
// deadline, if it has one) is waited for on a goroutine. The library's
// own bounds over a context that cannot be cancelled end only at their
// deadline; any other context with a deadline may be cancelled first.
func honoursContext(ctx context.Context, client Client) bool {
	if b, ok := ctx.(*boundCtx); ok {
		return b.onlyDeadline && client.Info().Deadlines
	}
	if _, ok := ctx.Deadline(); ok {
		return false
	}
	// Asked last: a cancel context makes its channel on the first Done.
	return ctx.Done() == nil
}
