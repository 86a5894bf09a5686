// Package waitermarker pins a waiter's own queue marker: a waiter that
// misses the lock starts two goroutines, one that polls the lock and,
// when its wait runs out, deletes the waiter's marker, and one that
// writes the marker (named by the waiter's token, a uuid, with the same
// uuid as its value), queues the uuid and, once woken, takes the lock or
// queues again. The marker's name is this acquisition's token: nobody
// else writes it, so it is no lock, and writing it after the poll's
// delete is no reacquire with a reused token. The near miss takes a
// job's key with a constant.
package waitermarker

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
)

var ErrTimeout = errors.New("lock wait timed out")

func lockName(name string) string { return "lock:" + name }

func Acquire(ctx context.Context, rdb *redis.Client, name, uuid string, ttl, wait time.Duration) error {
	if ok, err := rdb.SetNX(ctx, lockName(name), uuid, ttl).Result(); ok {
		return nil
	} else if err != nil {
		return err
	}
	quit := make(chan struct{})
	res := make(chan error)
	go poll(ctx, rdb, name, uuid, ttl, wait, quit, res)
	go acquireByQueue(ctx, rdb, name, uuid, ttl, wait, quit, res)
	err := <-res
	close(quit)
	return err
}

func poll(ctx context.Context, rdb *redis.Client, name, uuid string, ttl, wait time.Duration, quit chan struct{}, res chan error) {
	timeout := time.After(wait)
	tick := time.NewTicker(300 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-quit:
			return
		case <-timeout:
			rdb.Del(ctx, uuid)
			res <- ErrTimeout
			return
		case <-tick.C:
			if ok, err := try(ctx, rdb, name, uuid, ttl); err != nil || ok {
				res <- err
				return
			}
		}
	}
}

func try(ctx context.Context, rdb *redis.Client, name, uuid string, ttl time.Duration) (bool, error) {
	return rdb.SetNX(ctx, lockName(name), uuid, ttl).Result()
}

func acquireByQueue(ctx context.Context, rdb *redis.Client, name, uuid string, ttl, wait time.Duration, quit chan struct{}, res chan error) {
	queued := make(chan error)
	go func() {
		ok, err := rdb.SetNX(ctx, uuid, uuid, wait).Result()
		if err != nil || ok {
			queued <- err
		} else {
			queued <- errors.New("queue up failed")
		}
	}()
	if err := <-queued; err != nil {
		res <- err
		return
	}
	if err := rdb.RPush(ctx, "queue:"+name, uuid).Err(); err != nil {
		res <- err
		return
	}
	sub := rdb.Subscribe(ctx, uuid)
	defer sub.Close()
	select {
	case <-quit:
	case <-sub.Channel():
		// Woken: take the lock, or queue again.
		res <- rejoinQueue(ctx, rdb, name, uuid, ttl, wait)
	}
}

func rejoinQueue(ctx context.Context, rdb *redis.Client, name, uuid string, ttl, wait time.Duration) error {
	return rejoin.Run(ctx, rdb, []string{lockName(name), "queue:" + name}, uuid, ttl.Milliseconds(), wait.Milliseconds()).Err()
}

var rejoin = redis.NewScript(`
if redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then
	return 1
end
redis.call('set', ARGV[1], ARGV[1], 'nx', 'px', ARGV[3])
redis.call('rpush', KEYS[2], ARGV[1])
return 0`)

// Near miss (reported): the job's key is taken, the job runs, the key is
// dropped by an owner check that its constant passes for every holder,
// each through a helper, with the job's name.
func begin(ctx context.Context, rdb *redis.Client, job string) bool {
	rdb.Incr(ctx, "jobs:started")
	return rdb.SetNX(ctx, "job:"+job, 1, time.Minute).Val() // want "acquired with a non-unique token"
}

func end(ctx context.Context, rdb *redis.Client, job string) {
	rdb.Incr(ctx, "jobs:ended")
	rdb.Eval(ctx, unlock, []string{"job:" + job}, 1)
}

func Run(ctx context.Context, rdb *redis.Client, job string, work func()) {
	if !begin(ctx, rdb, job) {
		return
	}
	work()
	end(ctx, rdb, job)
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
