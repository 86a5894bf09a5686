// Package unknownpart pins tokens that count on the clock and a small
// math/rand draw for uniqueness, with a part the model cannot see (a caller's prefix):
// the unknown part does not make them unique per acquisition.
package unknownpart

import (
	"context"
	"fmt"
	"math/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

func acquire(ctx context.Context, rdb *redis.Client, prefix, name string) bool {
	token := fmt.Sprintf("%s:%d:%d", prefix, time.Now().UnixNano(), rand.Intn(100))
	return rdb.SetNX(ctx, "lock:"+name, token, time.Minute).Val() // want "lock key `\"lock:\" \\+ name` acquired with a non-unique token \\(math/rand\\)"
}

// Near miss: an unknown part beside a constant one; the caller may pass a
// fresh token.
func acquireNamed(ctx context.Context, rdb *redis.Client, owner, name string) bool {
	return rdb.SetNX(ctx, "lock:"+name, "owner-"+owner, time.Minute).Val()
}
