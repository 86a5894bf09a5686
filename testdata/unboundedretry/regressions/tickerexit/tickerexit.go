// Package tickerexit pins a push loop that waits for a topic's lock
// under a ticker made before the loop: the first tick takes the branch
// that always leaves the loop, so the wait ends within one period. The
// twins wait the same way with a ticker made afresh on each pass, which
// never ticks, or with one whose tick only logs.
package tickerexit

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Pusher struct{ rdb *redis.Client }

func (p *Pusher) acquire(ctx context.Context, topic string) bool {
	ok, _ := p.rdb.SetNX(ctx, "lock:topic:"+topic, uuid.NewString(), time.Minute).Result()
	return ok
}

// Silent: the ticker, made before the loop, ends the wait at its first
// tick.
func (p *Pusher) Push(ctx context.Context, topic string, send func()) {
	check := time.NewTicker(30 * time.Second)
	defer check.Stop()
over:
	for {
		select {
		case <-check.C:
			break over
		default:
			if p.acquire(ctx, topic) {
				send()
				break over
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// Must report: a ticker made on every pass restarts before it can tick.
func (p *Pusher) PushFresh(ctx context.Context, topic string, send func()) {
over:
	for { // want "lock acquisition retried with no bound"
		check := time.NewTicker(30 * time.Second)
		select {
		case <-check.C:
			check.Stop()
			break over
		default:
			check.Stop()
			if p.acquire(ctx, topic) {
				send()
				break over
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// Must report: the tick only logs; the loop goes on waiting.
func (p *Pusher) PushLogged(ctx context.Context, topic string, send func(), warn func()) {
	check := time.NewTicker(30 * time.Second)
	defer check.Stop()
	for { // want "lock acquisition retried with no bound"
		select {
		case <-check.C:
			warn()
		default:
		}
		if p.acquire(ctx, topic) {
			send()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
