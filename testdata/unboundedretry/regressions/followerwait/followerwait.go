// Package followerwait pins a distributed single-flight: a caller that
// does not win the leader's lock waits as a follower, in a helper that
// reads the leader's lock and returns the context's error when the
// context is done, and comes back to the acquire only when the leader's
// lock or progress is gone. The loop ends with the caller's context: on
// the follower's error, or on the reason it gives. The twin's follower
// ignores the context, and its loop has no bound.
package followerwait

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type reason int

const (
	gotResult reason = iota + 1
	leaderGone
	ctxDone
)

type Group struct{ rdb *redis.Client }

func (g *Group) Do(ctx context.Context, key string, fn func(context.Context) (string, error)) (string, error) {
	for {
		lockKey, resultKey := "sf:lock:"+key, "sf:result:"+key
		ok, err := g.tryLock(ctx, lockKey, uuid.NewString())
		if err != nil {
			return "", err
		}
		if ok {
			return fn(ctx)
		}
		res, why, err := g.follow(ctx, lockKey, resultKey)
		if err != nil {
			return "", err
		}
		switch why {
		case gotResult:
			return res, nil
		case leaderGone:
			continue
		case ctxDone:
			return "", ctx.Err()
		}
	}
}

func (g *Group) tryLock(ctx context.Context, key, id string) (bool, error) {
	ok, err := g.rdb.SetNX(ctx, key, id, 30*time.Second).Result()
	if err != nil {
		return false, err
	}
	return ok, nil
}

func (g *Group) follow(ctx context.Context, lockKey, resultKey string) (string, reason, error) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var last string
	for {
		select {
		case <-ctx.Done():
			return "", ctxDone, ctx.Err()
		case <-tick.C:
			if v, err := g.result(ctx, resultKey); err == nil {
				return v, gotResult, nil
			}
			if why := g.leader(ctx, lockKey, resultKey, &last); why != 0 {
				return "", why, nil
			}
		}
	}
}

func (g *Group) result(ctx context.Context, resultKey string) (string, error) {
	return g.rdb.Get(ctx, resultKey).Result()
}

// leader reads the leader's lock and progress: 0 while it still works.
func (g *Group) leader(ctx context.Context, lockKey, resultKey string, last *string) reason {
	if g.rdb.Exists(ctx, lockKey).Val() == 0 {
		if g.rdb.Exists(ctx, resultKey).Val() == 1 {
			return gotResult
		}
		return leaderGone
	}
	holder := g.rdb.Get(ctx, lockKey).Val()
	if holder == *last {
		return leaderGone
	}
	*last = holder
	return 0
}

func (g *Group) DoBlind(ctx context.Context, key string, fn func(context.Context) (string, error)) (string, error) {
	for { // want "lock acquisition retried with no bound"
		lockKey := "sf:lock:" + key
		ok, err := g.tryLock(ctx, lockKey, uuid.NewString())
		if err != nil {
			return "", err
		}
		if ok {
			return fn(ctx)
		}
		if g.followBlind(lockKey) == gotResult {
			return g.rdb.Get(ctx, "sf:result:"+key).Val(), nil
		}
	}
}

func (g *Group) followBlind(lockKey string) reason {
	for {
		time.Sleep(100 * time.Millisecond)
		if g.rdb.Exists(context.Background(), lockKey).Val() == 0 {
			return leaderGone
		}
	}
}
