// Package leaderinstance pins a leader lease whose holder is named by its
// host and its start time: an outbox publisher's constructor stores
// "<hostname>-<UnixNano>" once, and the publisher's one loop takes and
// renews the leader key with it. The process is the holder, and that
// name is unique to the process. The twins store the same name for a
// per-order lock, which every acquisition of the process shares, and take
// the leader key with a host-and-clock value made per attempt.
package leaderinstance

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
)

type Publisher struct {
	rdb      *redis.Client
	leaderID string
}

func NewPublisher(rdb *redis.Client) *Publisher {
	host, _ := os.Hostname()
	return &Publisher{rdb: rdb, leaderID: fmt.Sprintf("%s-%d", host, time.Now().UnixNano())}
}

// Near miss (silent): the process's own name for its leader lease.
func (p *Publisher) lead(ctx context.Context) bool {
	ok, err := p.rdb.SetNX(ctx, "outbox:publisher:leader", p.leaderID, 30*time.Second).Result()
	return err == nil && ok
}

func (p *Publisher) leaderKey() string {
	if p.rdb == nil {
		return ""
	}
	return "outbox:relay:leader"
}

// Near miss (silent): the same name, for a key a method of the
// publisher makes.
func (p *Publisher) relay(ctx context.Context) bool {
	ok, err := p.rdb.SetNX(ctx, p.leaderKey(), p.leaderID, 30*time.Second).Result()
	return err == nil && ok
}

// Must report: every order this process locks shares the name.
func (p *Publisher) lockOrder(ctx context.Context, order string) bool {
	ok, err := p.rdb.SetNX(ctx, "order:lock:"+order, p.leaderID, 30*time.Second).Result() // want "lock key `\"order:lock:\" \\+ order` acquired with a non-unique token"
	return err == nil && ok
}

// Must report: made per attempt, two goroutines of one process can read
// the same clock.
func elect(ctx context.Context, rdb *redis.Client) bool {
	host, _ := os.Hostname()
	id := fmt.Sprintf("%s-%d", host, time.Now().UnixNano())
	ok, err := rdb.SetNX(ctx, "scheduler:leader", id, 30*time.Second).Result() // want "lock key `\"scheduler:leader\"` acquired with a non-unique token"
	return err == nil && ok
}
