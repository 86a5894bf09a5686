// Package gatemarker pins a once-per-interval gate: TryLock takes an
// unexported constant key with a constant value for the interval and
// returns whether it did; nothing releases, renews or reads the key, and
// no code outside the package can name it, so the caller that is told it
// took the gate has nothing to release it with and the value guards
// nothing. The twins' keys leave the package (an exported constant, a
// method that returns the key), where a release may compare the value.
package gatemarker

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	lockKey = "alerts:lock"
	openKey = "alerts:open"
	// LeaseKey is the evaluator's lease, which the operator tool frees.
	LeaseKey = "alerts:lease"
	syncKey  = "alerts:sync:lock"
)

type State struct{ rdb *redis.Client }

func (s *State) TryLock(ctx context.Context, ttlSec int) bool {
	ok, err := s.rdb.SetNX(ctx, lockKey, "1", time.Duration(ttlSec)*time.Second).Result()
	return err == nil && ok
}

func (s *State) Open(ctx context.Context) map[string]string {
	return s.rdb.HGetAll(ctx, openKey).Val()
}

func Evaluate(ctx context.Context, s *State, eval func()) {
	if !s.TryLock(ctx, 60) {
		return
	}
	eval()
}

func (s *State) TryLease(ctx context.Context) (bool, error) {
	return s.rdb.SetNX(ctx, LeaseKey, "1", time.Minute).Result() // want "lock key `LeaseKey` acquired with a non-unique token \\(the constant `\"1\"`\\)"
}

func (s *State) TrySync(ctx context.Context) bool {
	return s.rdb.SetNX(ctx, syncKey, "1", time.Minute).Val() // want "lock key `syncKey` acquired with a non-unique token \\(the constant `\"1\"`\\)"
}

// SyncKey names the sync lock for the tool that frees it.
func SyncKey() string { return syncKey }
