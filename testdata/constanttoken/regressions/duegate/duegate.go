// Package duegate pins a pipeline scheduler's gates: a helper takes
// "ci:prune:<hash>" or "ci:schedule:<pipeline>:<due>" with SETNX of "1"
// and returns whether it took it, and its caller runs the round only
// then. The key is built inside the helper from a text no other command
// of the package uses, and nothing releases, renews or reads it: a
// once-per-period marker whose constant guards nothing, silent. The twin
// gates a build with a key of its own text that a release compares with
// the same constant: reported.
package duegate

import (
	"context"
	"crypto/sha1"
	"fmt"
	"time"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

const interval = 10 * time.Minute

func prune(context.Context)          {}
func runDue(context.Context, string) {}
func build(context.Context, string)  {}

func Reconcile(ctx context.Context, rds *redis.Redis) {
	if !acquirePruneLock(ctx, rds) {
		return
	}
	prune(ctx)
}

// Near miss (silent): the gate's key is closed in the helper.
func acquirePruneLock(ctx context.Context, rds *redis.Redis) bool {
	sum := sha1.Sum([]byte("pruner"))
	key := fmt.Sprintf("ci:prune:%x", sum)
	ok, err := rds.SetnxExCtx(ctx, key, "1", int((interval - time.Minute).Seconds()))
	if err != nil {
		return false
	}
	return ok
}

func Schedule(ctx context.Context, rds *redis.Redis, pipeline string, due time.Time) {
	if !acquireScheduleRunLock(ctx, rds, pipeline, due) {
		return
	}
	runDue(ctx, pipeline)
}

// Near miss (silent): built from the caller's parts, and nothing of the
// package touches a key of its text.
func acquireScheduleRunLock(ctx context.Context, rds *redis.Redis, pipeline string, due time.Time) bool {
	key := fmt.Sprintf("ci:schedule:%s:%d", pipeline, due.Unix())
	ok, err := rds.SetnxExCtx(ctx, key, "1", int(time.Hour.Seconds()))
	return err == nil && ok
}

const releaseLua = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func Build(ctx context.Context, rds *redis.Redis, pipeline string) {
	if !acquireBuildLock(ctx, rds, pipeline) {
		return
	}
	defer releaseBuildLock(ctx, rds, pipeline)
	build(ctx, pipeline)
}

// Must report: a release compares the value every holder stores.
func acquireBuildLock(ctx context.Context, rds *redis.Redis, pipeline string) bool {
	key := fmt.Sprintf("ci:build:%s", pipeline)
	ok, err := rds.SetnxExCtx(ctx, key, "1", 600) // want "acquired with a non-unique token"
	return err == nil && ok
}

func releaseBuildLock(ctx context.Context, rds *redis.Redis, pipeline string) {
	rds.EvalCtx(ctx, releaseLua, []string{fmt.Sprintf("ci:build:%s", pipeline)}, "1")
}
