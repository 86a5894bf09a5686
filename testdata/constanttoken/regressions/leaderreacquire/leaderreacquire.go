// Package leaderreacquire pins a replica's leader lease: the renewal
// reads the key, and when it has lapsed takes it again under the
// replica's identity, the one it held it by. A leader's holder is the
// process, so the same identity is the same holder: silent. The twin is
// a job lock whose loop deletes it and takes it again with the token of
// the first round, so a release still in flight from one round passes
// the owner check of the next: reported.
package leaderreacquire

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Leader struct{ rdb *redis.Client }

func (l *Leader) TryAcquireLeader(ctx context.Context, leaderKey, replicaID string, lease time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, leaderKey, replicaID, lease).Result()
}

func (l *Leader) RenewLease(ctx context.Context, leaderKey, holder string, lease time.Duration) error {
	val, err := l.rdb.Get(ctx, leaderKey).Result()
	if err == redis.Nil {
		if ok, _ := l.TryAcquireLeader(ctx, leaderKey, holder, lease); ok {
			return nil
		}
		return errors.New("not leader")
	}
	if err != nil || val != holder {
		return errors.New("not leader")
	}
	return l.rdb.Expire(ctx, leaderKey, lease).Err()
}

const release = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func work(context.Context, string) {}

// Must report: one token for every round of a job lock.
func (l *Leader) RunJobs(ctx context.Context, jobs []string) {
	token := uuid.NewString()
	for _, job := range jobs {
		ok, err := l.rdb.SetNX(ctx, "job:lock", token, time.Minute).Result() // want "acquired again with token `token` after the release on line 52"
		if err != nil || !ok {
			continue
		}
		work(ctx, job)
		l.rdb.Eval(ctx, release, []string{"job:lock"}, token)
	}
}
