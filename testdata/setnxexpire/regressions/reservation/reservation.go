// Package reservation pins the held-out false report on a reservation
// record under the node's own id (heathcliff26/fleetlock's shape, on
// valkey-go): a node reserves a reboot slot by SETNX of group:<g>,id:<node>
// with the reservation time and no TTL on purpose (the node keeps its slot
// across its reboot), adds the key to the group's set, and deletes it on
// release. Only that node ever writes that key, so it is never contended:
// a record, not a lock, and no TTL is no bug. The twin is a mutex every
// node takes on the group before counting its slots, with SETNX and no
// TTL: a node that crashes holding it blocks the group forever.
package reservation

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/valkey-io/valkey-go"
)

var releaseGroup = valkey.NewLuaScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

type ValkeyBackend struct {
	client valkey.Client
}

func slotKey(group, id string) string { return fmt.Sprintf("group:%s,id:%s", group, id) }

// Near miss (silent): the node's own record, no TTL by design.
func (b *ValkeyBackend) Reserve(ctx context.Context, group, id string) (bool, error) {
	k := slotKey(group, id)
	ok, err := b.client.Do(ctx, b.client.B().Setnx().Key(k).Value(time.Now().String()).Build()).AsBool()
	if err != nil || !ok {
		return ok, err
	}
	return true, b.client.Do(ctx, b.client.B().Sadd().Key(group).Member(k).Build()).Error()
}

func (b *ValkeyBackend) Release(ctx context.Context, group, id string) error {
	k := slotKey(group, id)
	if err := b.client.Do(ctx, b.client.B().Del().Key(k).Build()).Error(); err != nil {
		return err
	}
	return b.client.Do(ctx, b.client.B().Srem().Key(group).Member(k).Build()).Error()
}

func (b *ValkeyBackend) HasLock(ctx context.Context, group, id string) (bool, error) {
	return b.client.Do(ctx, b.client.B().Exists().Key(slotKey(group, id)).Build()).AsBool()
}

func (b *ValkeyBackend) GetLocks(ctx context.Context, group string) (int64, error) {
	return b.client.Do(ctx, b.client.B().Scard().Key(group).Build()).AsInt64()
}

// Must report: a group-wide mutex that every node contends for, with no TTL.
func (b *ValkeyBackend) ReserveBounded(ctx context.Context, group, id string, max int64) (bool, error) {
	lockKey := "lock:group:" + group
	token := uuid.NewString()
	ok, err := b.client.Do(ctx, b.client.B().Setnx().Key(lockKey).Value(token).Build()).AsBool() // want "lock key `lockKey` acquired with no expiry"
	if err != nil || !ok {
		return false, err
	}
	defer releaseGroup.Exec(ctx, b.client, []string{lockKey}, []string{token})
	if n, err := b.GetLocks(ctx, group); err != nil || n >= max {
		return false, err
	}
	return b.Reserve(ctx, group, id)
}

const keyformat = "group:%s,id:%s"

// InlineBackend builds the same record's key in each method, as
// fleetlock does.
type InlineBackend struct {
	client valkey.Client
}

// Near miss (silent): the node's own record, its key formatted in place.
func (b *InlineBackend) Reserve(ctx context.Context, group, id string) error {
	key := fmt.Sprintf(keyformat, group, id)
	ok, err := b.client.Do(ctx, b.client.B().Setnx().Key(key).Value(time.Now().String()).Build()).AsBool()
	if err != nil {
		return err
	}
	if ok {
		return b.client.Do(ctx, b.client.B().Sadd().Key(group).Member(key).Build()).Error()
	}
	return nil
}

func (b *InlineBackend) Release(ctx context.Context, group, id string) error {
	key := fmt.Sprintf(keyformat, group, id)
	if err := b.client.Do(ctx, b.client.B().Del().Key(key).Build()).Error(); err != nil {
		return err
	}
	return b.client.Do(ctx, b.client.B().Srem().Key(group).Member(key).Build()).Error()
}

// Must report: a bare id alone names the order, which every worker
// contends for.
func (b *InlineBackend) ProcessOrder(ctx context.Context, id string, work func()) error {
	key := fmt.Sprintf("order:%s", id)
	ok, err := b.client.Do(ctx, b.client.B().Setnx().Key(key).Value(uuid.NewString()).Build()).AsBool() // want "lock key `key` acquired with no expiry"
	if err != nil || !ok {
		return err
	}
	work()
	return b.client.Do(ctx, b.client.B().Del().Key(key).Build()).Error()
}
