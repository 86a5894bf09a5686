// Package masterfunc pins a master election whose node id, a UUID drawn
// once when the node's elector is made, is stored by every take: the
// function that takes the key is named for the role (TryAcquireMaster),
// so the lease is the process's and one id per process is its owner.
// The near miss takes an order's lock with the same id: every
// acquisition of the process shares it.
package masterfunc

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Node struct {
	rdb *redis.Client
	id  string
}

func NewNode(rdb *redis.Client) *Node {
	return &Node{rdb: rdb, id: fmt.Sprintf("%s%d", uuid.New().String(), time.Now().Nanosecond())}
}

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// Silent: the master lease's owner is the node.
func (n *Node) TryAcquireMaster(ctx context.Context, key string, ttl time.Duration) bool {
	ok, err := n.rdb.SetNX(ctx, key, n.id, ttl).Result()
	return err == nil && ok
}

func (n *Node) Resign(ctx context.Context, key string) {
	release.Run(ctx, n.rdb, []string{key}, n.id)
}

// Must report: an order's lock taken with the node's one id.
func (n *Node) LockOrder(ctx context.Context, order string) bool {
	ok, err := n.rdb.SetNX(ctx, "lock:order:"+order, n.id, time.Minute).Result() // want "non-unique token"
	return err == nil && ok
}

func (n *Node) UnlockOrder(ctx context.Context, order string) {
	release.Run(ctx, n.rdb, []string{"lock:order:" + order}, n.id)
}
