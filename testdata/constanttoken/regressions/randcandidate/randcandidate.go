// Package randcandidate pins a job master's candidacy drawn once per job
// and process from math/rand, seeded from the clock at start-up: the job's
// constructor stores it beside the job's key, and the job's loop takes and
// keeps the key with it. It names the process, as a drawn id does. The
// twins draw per attempt here, and (package fixedseed) from a global
// source seeded with a constant, which every process repeats.
package randcandidate

import (
	"context"
	"fmt"
	"math/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

func init() {
	rand.Seed(time.Now().UnixNano())
}

type Job struct {
	Name     string
	Value    string
	IsMaster bool
	rdb      *redis.Client
}

func newJob(rdb *redis.Client, name string) *Job {
	return &Job{rdb: rdb, Name: "spr:" + name, Value: fmt.Sprintf("%d", rand.Intn(100000000)+1)}
}

// Near miss (silent): the job's own candidacy, kept for its terms.
func (j *Job) run(ctx context.Context) {
	v, err := j.rdb.Get(ctx, j.Name).Result()
	switch {
	case err == nil && v == j.Value:
		j.IsMaster = true
		j.rdb.Expire(ctx, j.Name, 90*time.Second)
	case err == redis.Nil:
		ok, err := j.rdb.SetNX(ctx, j.Name, j.Value, 90*time.Second).Result()
		j.IsMaster = err == nil && ok
	default:
		j.IsMaster = false
	}
}

// Must report: a draw per attempt for a per-order lock.
func lockOrder(ctx context.Context, rdb *redis.Client, order string) bool {
	v := fmt.Sprintf("%d", rand.Intn(1000))
	ok, err := rdb.SetNX(ctx, "order:lock:"+order, v, 30*time.Second).Result() // want "acquired with a non-unique token"
	return err == nil && ok
}
