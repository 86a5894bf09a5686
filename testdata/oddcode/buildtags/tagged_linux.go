//go:build linux && !locklint_never

// Package buildtags has files selected by build constraints; only the
// files of the current build are analysed.
package buildtags

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Release(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "lock:linux") // want "DEL of lock key `\"lock:linux\"` without an owner check"
}
