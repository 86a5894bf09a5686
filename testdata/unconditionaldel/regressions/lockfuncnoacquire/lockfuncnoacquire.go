// Package lockfuncnoacquire pins the near miss of a lock verb: in a
// package that acquires nothing, Release returns a pooled resource.
package lockfuncnoacquire

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Slots struct{ rdb *redis.Client }

func (s *Slots) Release(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, key).Err()
}
