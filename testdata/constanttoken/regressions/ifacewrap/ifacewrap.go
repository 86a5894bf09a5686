// Package ifacewrap acquires through kv.Store, a service's interface whose
// one implementation forwards to go-redis with the TTL before the value.
package ifacewrap

import (
	"context"
	"time"

	"github.com/google/uuid"

	"locklint.test/unconditionaldel/regressions/ifacewrap/kv"
)

func Refresh(ctx context.Context, store kv.Store, id string) (bool, error) {
	return store.PutIfAbsent(ctx, "summary:lock:"+id, 2*time.Minute, "1") // want "lock key `\"summary:lock:\" \\+ id` acquired with a non-unique token \\(the constant `\"1\"`\\)"
}

// Near misses: a fresh token, and a flag that is not a lock (no lock word,
// no release).
func RefreshOwned(ctx context.Context, store kv.Store, id string) (string, bool, error) {
	token := uuid.NewString()
	ok, err := store.PutIfAbsent(ctx, "summary:lock:"+id, 2*time.Minute, token)
	return token, ok, err
}

func MarkStale(ctx context.Context, store kv.Store, id string) error {
	_, err := store.PutIfAbsent(ctx, "summary:stale:"+id, 2*time.Minute, "rerun")
	return err
}
