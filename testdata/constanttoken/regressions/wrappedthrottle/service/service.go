// Package service pins throttles taken through the service's own
// command layer: a key built here from a constant named for a lock and
// the caller's ids, taken with a constant for an interval and never
// released, renewed or read back, guards nothing a token could protect.
// Its twins are released: by a plain DEL through the same layer, which
// compares nothing (the DEL is that lock's one defect, unconditionaldel's),
// or through a helper of that layer whose script the model reads, or
// through one whose release it cannot see, and the constants of those
// let one holder's release pass for another's.
package service

import (
	"context"
	"fmt"
	"time"

	"locklint.test/constanttoken/regressions/wrappedthrottle/redisop"
)

const (
	videoControlLock = "video:room:control:"
	seatLock         = "seat:lock:"
	stockLock        = "stock:lock:"
)

type Room struct{ op *redisop.Op }

// Control lets one play command per user and room through every 300 ms.
func (r *Room) Control(ctx context.Context, uid, room int64) error {
	key := fmt.Sprintf("%s%d:%d", videoControlLock, uid, room)
	if ok, _ := r.op.SetNx(ctx, key, "", 300*time.Millisecond); !ok {
		return fmt.Errorf("too frequent")
	}
	return nil
}

// Allow takes a throttle key its caller builds: a key that may be
// Control's, taken again, which releases nothing.
func (r *Room) Allow(ctx context.Context, limitKey string) bool {
	ok, _ := r.op.SetNx(ctx, limitKey, 1, time.Second)
	return ok
}

func (r *Room) Hold(ctx context.Context, seat int64) (bool, error) {
	key := fmt.Sprintf("%s%d", seatLock, seat)
	ok, err := r.op.SetNx(ctx, key, "1", time.Minute)
	if err != nil || !ok {
		return false, err
	}
	return true, nil
}

func (r *Room) Free(ctx context.Context, seat int64) error {
	return r.op.Del(ctx, fmt.Sprintf("%s%d", seatLock, seat))
}

func (r *Room) Reserve(ctx context.Context, item int64) error {
	key := fmt.Sprintf("%s%d", stockLock, item)
	if ok, _ := r.op.SetNx(ctx, key, "1", 10*time.Second); !ok { // want "lock key `key` acquired with a non-unique token \\(the constant `\"1\"`\\)"
		return fmt.Errorf("busy")
	}
	return nil
}

func (r *Room) Done(ctx context.Context, item int64) error {
	return r.op.Unlock(ctx, fmt.Sprintf("%s%d", stockLock, item), "1")
}

func (r *Room) Claim(ctx context.Context, ticket int64) error {
	key := fmt.Sprintf("ticket:lock:%d", ticket)
	if ok, _ := r.op.SetNx(ctx, key, "1", 10*time.Second); !ok { // want "lock key `key` acquired with a non-unique token \\(the constant `\"1\"`\\)"
		return fmt.Errorf("busy")
	}
	return nil
}

func (r *Room) Unclaim(ctx context.Context, ticket int64) error {
	return r.op.Forget(ctx, fmt.Sprintf("ticket:lock:%d", ticket))
}
