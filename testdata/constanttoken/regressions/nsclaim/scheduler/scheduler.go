// Package scheduler pins a once-per-period claim taken through a client
// wrapper's namespaced key: the promotion pass takes
// Key("lock:scheduler:promo") with SET NX EX 55s of "1" and never gives it
// back; a miss returns at once. Nothing compares the value: silent. The
// twin's release compares the constant before it deletes: reported.
package scheduler

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"

	"locklint.test/constanttoken/regressions/nsclaim/kv"
)

type Scheduler struct {
	vk *kv.Client
}

func promote(context.Context) error { return nil }

func (s *Scheduler) PromoteTasks(ctx context.Context) error {
	lockKey := s.vk.Key("lock:scheduler:promo")
	in := s.vk.Inner()
	res := in.Do(ctx, in.B().Set().Key(lockKey).Value("1").Nx().Ex(55*time.Second).Build())
	if err := res.Error(); err != nil {
		if valkey.IsValkeyNil(err) {
			return nil
		}
		return err
	}
	return promote(ctx)
}

const release = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`

func (s *Scheduler) Rebuild(ctx context.Context) error {
	lockKey := s.vk.Key("lock:scheduler:rebuild")
	in := s.vk.Inner()
	res := in.Do(ctx, in.B().Set().Key(lockKey).Value("1").Nx().Ex(55*time.Second).Build()) // want "lock key `lockKey` acquired with a non-unique token"
	if err := res.Error(); err != nil {
		return err
	}
	defer in.Do(context.Background(), in.B().Eval().Script(release).Numkeys(1).Key(lockKey).Arg("1").Build())
	return promote(ctx)
}
