// Package biz is a kratos use case that takes a cache-rebuild lock
// through its data layer's port and defers the release under the
// context it is given.
package biz

import (
	"context"
	"errors"
	"fmt"
	"time"
)

type CacheRepo interface {
	Get(ctx context.Context, key string) (string, error)
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) (bool, error)
	Del(ctx context.Context, keys ...string) error
}

type Usecase struct{ Cache CacheRepo }

func (uc *Usecase) Detail(ctx context.Context, id int64) (string, error) {
	lockKey := fmt.Sprintf("lock:product:%d", id)
	ok, err := uc.Cache.SetNX(ctx, lockKey, "1", 5*time.Second)
	if err != nil || !ok {
		return "", errors.New("busy")
	}
	defer uc.Cache.Del(ctx, lockKey)
	return uc.Cache.Get(ctx, fmt.Sprintf("product:%d", id))
}
