// Package task pins a clock token passed to the module's own acquire,
// whose not-obtained error makes it an Obtainer too: the call is both,
// and its value is read where it forwards to SETNX. The near miss draws
// the value from crypto/rand.
package task

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/constanttoken/regressions/obtainertoken/utils"
)

// Must report: two syncs in one nanosecond tick, or with clocks apart,
// store values that Release cannot tell apart.
func Sync(ctx context.Context, rdb *redis.Client) error {
	lockKey := "market:sync:lock"
	lockValue := fmt.Sprintf("%d", time.Now().UnixNano())
	l := utils.NewRedisLock(rdb)
	if err := l.Acquire(ctx, lockKey, lockValue, 30*time.Second); err != nil { // want "non-unique token"
		return err
	}
	defer l.Release(context.Background(), lockKey, lockValue)
	return nil
}

// Near miss (silent): a random value per acquisition.
func SyncRandom(ctx context.Context, rdb *redis.Client) error {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return err
	}
	lockKey, lockValue := "market:sync:lock", hex.EncodeToString(b)
	l := utils.NewRedisLock(rdb)
	if err := l.Acquire(ctx, lockKey, lockValue, 30*time.Second); err != nil {
		return err
	}
	defer l.Release(context.Background(), lockKey, lockValue)
	return nil
}
