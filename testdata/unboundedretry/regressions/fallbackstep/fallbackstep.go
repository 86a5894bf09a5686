// Package fallbackstep pins a one-step fallback: a ledger that records a
// transaction through a batch lane first calls itself once more when the
// lane declines, with a plan of the single-transaction mode, which the
// function switches on and which never recurses. The call moves to
// another state; it does not try the lock again. The near miss calls
// itself with the plan it was given, after a pause: a retry, forever.
package fallbackstep

import (
	"context"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

type mode int

const (
	batched mode = iota
	single
)

type plan struct {
	mode mode
	id   string
}

type Ledger struct {
	rdb   *redis.Client
	token string
}

func (l *Ledger) tryBatch(ctx context.Context, id string) (bool, error) { // want tryBatch:"acquires lock via SET NX"
	return l.rdb.SetNX(ctx, "lock:batch:"+id, l.token, 5*time.Second).Result()
}

func (l *Ledger) recordOne(ctx context.Context, id string) error {
	return l.rdb.HSet(ctx, "txn:"+id, "state", "recorded").Err()
}

func planFor(id string, batch bool) plan {
	if batch {
		return plan{mode: batched, id: id}
	}
	return plan{mode: single, id: id}
}

// Near miss (silent): the lane declined; record it alone instead.
func (l *Ledger) execute(ctx context.Context, p plan) error {
	switch p.mode {
	case batched:
		handled, err := l.tryBatch(ctx, p.id)
		if err != nil {
			log.Printf("batch lane for %s: %v", p.id, err)
		}
		if handled {
			return nil
		}
		return l.execute(ctx, planFor(p.id, false))
	case single:
		return l.recordOne(ctx, p.id)
	}
	return nil
}

// Must report: the same plan again, until the lane takes it.
func (l *Ledger) executeAgain(ctx context.Context, p plan) error {
	switch p.mode {
	case batched:
		handled, err := l.tryBatch(ctx, p.id)
		if err != nil {
			log.Printf("batch lane for %s: %v", p.id, err)
		}
		if handled {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
		return l.executeAgain(ctx, p) // want `lock acquisition retried by recursion with no bound`
	case single:
		return l.recordOne(ctx, p.id)
	}
	return nil
}
