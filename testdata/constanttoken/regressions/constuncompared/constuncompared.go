// Package constuncompared pins cron locks that store a constant: released
// by a plain DEL through the service's own helper, compared in a GET
// before the DEL (with that same constant), in a script, or in a script
// whose text the model cannot read. The plain DEL compares nothing, so
// the DEL is the lock's one defect (unconditionaldel reports it, naming
// the constant); each of the others compares the value, and a constant
// passes every holder's check.
package constuncompared

import (
	"context"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
)

type Scheduler struct{ rdb *redis.Client }

func (s *Scheduler) safeDel(ctx context.Context, key string) {
	_ = s.rdb.Del(ctx, key).Err()
}

func (s *Scheduler) runDaily(ctx context.Context, reset func()) {
	ok, err := s.rdb.SetNX(ctx, "cron:daily_reset_lock", "1", 5*time.Minute).Result()
	if err != nil || !ok {
		return
	}
	defer s.safeDel(context.Background(), "cron:daily_reset_lock")
	reset()
}

func (s *Scheduler) runCleanup(ctx context.Context, purge func()) {
	const key = "cron:cleanup_lock"
	if !s.rdb.SetNX(ctx, key, "1", 5*time.Minute).Val() { // want "lock key `key` acquired with a non-unique token \\(the constant `\"1\"`\\)"
		return
	}
	defer func() {
		if s.rdb.Get(ctx, key).Val() == "1" {
			s.rdb.Del(ctx, key)
		}
	}()
	purge()
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func (s *Scheduler) runMonthly(ctx context.Context, reset func()) {
	if !s.rdb.SetNX(ctx, "cron:monthly_lock", "held", 5*time.Minute).Val() { // want "lock key `\"cron:monthly_lock\"` acquired with a non-unique token \\(the constant `\"held\"`\\)"
		return
	}
	defer s.rdb.Eval(ctx, unlock, []string{"cron:monthly_lock"}, "held")
	reset()
}

func (s *Scheduler) runWeekly(ctx context.Context, reset func()) {
	if !s.rdb.SetNX(ctx, "cron:weekly_lock", "held", 5*time.Minute).Val() { // want "lock key `\"cron:weekly_lock\"` acquired with a non-unique token \\(the constant `\"held\"`\\)"
		return
	}
	// The script comes from the environment: it may compare the value.
	defer s.rdb.Eval(ctx, os.Getenv("UNLOCK_SCRIPT"), []string{"cron:weekly_lock"}, "held")
	reset()
}
