// Package loopcounter pins tokens numbered by a loop: worker 3 of one
// replica stores what worker 3 of every other replica does, so one can
// release or extend the other's lock through its owner check.
package loopcounter

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

func workers(ctx context.Context, rdb *redis.Client) {
	for i := 0; i < 4; i++ {
		go func() {
			token := fmt.Sprintf("worker-%d", i)
			if !rdb.SetNX(ctx, "lock:job", token, time.Minute).Val() { // want "lock key `\"lock:job\"` acquired with a non-unique token \\(loop counter `i`, the same in every process\\)"
				return
			}
			defer rdb.Eval(ctx, unlock, []string{"lock:job"}, token)
		}()
	}
}

// handle's callers all pass a counter.
func handle(ctx context.Context, rdb *redis.Client, workerID int) {
	value := fmt.Sprintf("worker_%d", workerID)
	ok, err := rdb.SetNX(ctx, "lock:order", value, 5*time.Second).Result() // want "lock key `\"lock:order\"` acquired with a non-unique token \\(parameter `workerID`, given loop counter `i`, the same in every process\\)"
	if err != nil || !ok {
		return
	}
	defer rdb.Eval(ctx, unlock, []string{"lock:order"}, value)
}

func start(ctx context.Context, rdb *redis.Client) {
	for i := 1; i <= 3; i++ {
		id := i
		go handle(ctx, rdb, id)
	}
}

func each(ctx context.Context, rdb *redis.Client, shards []string) {
	for n := range shards {
		rdb.SetNX(ctx, "lock:shard:"+shards[n], strconv.Itoa(n), time.Minute) // want "lock key `\"lock:shard:\" \\+ shards\\[n\\]` acquired with a non-unique token \\(loop counter `n`, the same in every process\\)"
	}
}

func releaseShards(ctx context.Context, rdb *redis.Client, shards []string) {
	for _, s := range shards {
		rdb.Del(ctx, "lock:shard:"+s)
	}
}

// Near miss: the counter next to a fresh part.
func workersOwned(ctx context.Context, rdb *redis.Client) {
	for i := 0; i < 4; i++ {
		token := fmt.Sprintf("%d-%s", i, uuid.NewString())
		if rdb.SetNX(ctx, "lock:job", token, time.Minute).Val() {
			rdb.Del(ctx, "lock:job")
		}
	}
}

// Near miss: the only caller passes a fresh token.
func handleOwned(ctx context.Context, rdb *redis.Client, token string) {
	if rdb.SetNX(ctx, "lock:owned", token, time.Minute).Val() {
		defer rdb.Del(ctx, "lock:owned")
	}
}

func startOwned(ctx context.Context, rdb *redis.Client) {
	handleOwned(ctx, rdb, uuid.NewString())
}

// Near miss: a counter the loop body also moves is not a plain count.
func skipping(ctx context.Context, rdb *redis.Client, skip func(int) bool) {
	for i := 0; i < 10; i++ {
		if skip(i) {
			i++
		}
		if rdb.SetNX(ctx, "lock:slot", strconv.Itoa(i), time.Minute).Val() {
			rdb.Del(ctx, "lock:slot")
		}
	}
}

// Near miss: a parameter of a function that is also passed as a value has
// callers out of sight.
func handleAny(ctx context.Context, rdb *redis.Client, workerID int) {
	if rdb.SetNX(ctx, "lock:any", strconv.Itoa(workerID), time.Minute).Val() {
		defer rdb.Del(ctx, "lock:any")
	}
}

func register(run func(context.Context, *redis.Client, int)) {}

func startAny(ctx context.Context, rdb *redis.Client) {
	register(handleAny)
	for i := 0; i < 2; i++ {
		handleAny(ctx, rdb, i)
	}
}

// An acquire helper forwards the caller's value: the finding is at the
// caller, once, not also inside the helper.
func tryLock(ctx context.Context, rdb *redis.Client, key, value string) bool {
	ok, err := rdb.SetNX(ctx, key, value, 3*time.Second).Result()
	return err == nil && ok
}

func business(ctx context.Context, rdb *redis.Client, workerID int) {
	value := fmt.Sprintf("worker_%d", workerID)
	if !tryLock(ctx, rdb, "lock:business", value) { // want "lock key `\"lock:business\"` acquired with a non-unique token \\(parameter `workerID`, given loop counter `w`, the same in every process\\)"
		return
	}
	defer rdb.Eval(ctx, unlock, []string{"lock:business"}, value)
}

func startBusiness(ctx context.Context, rdb *redis.Client) {
	for w := 0; w < 3; w++ {
		go business(ctx, rdb, w)
	}
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
