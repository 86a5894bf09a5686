// Package reservation pins the held-out false report on a reservation
// record under the node's own id (heathcliff26/fleetlock's shape, on
// valkey-go): a node reserves a reboot slot by SETNX of group:<g>,id:<node>
// with the reservation time as value, adds the key to the group's set and
// deletes it on release. The value is never compared, and no other node
// writes that key: a clock reading there protects nothing. The twin is a
// group-wide mutex whose token is the clock, released by a script that
// compares it: two nodes in one tick share the token.
package reservation

import (
	"context"
	"fmt"
	"time"

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

// Near miss (silent): the reservation time is a record's value.
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

// Must report: a contended mutex whose compared token is the clock.
func (b *ValkeyBackend) ReserveBounded(ctx context.Context, group, id string, max int64) (bool, error) {
	lockKey := "lock:group:" + group
	token := time.Now().String()
	ok, err := b.client.Do(ctx, b.client.B().Set().Key(lockKey).Value(token).Nx().Px(10*time.Second).Build()).AsBool() // want "lock key `lockKey` acquired with a non-unique token \\(`time\\.Now`\\)"
	if err != nil || !ok {
		return false, err
	}
	defer releaseGroup.Exec(ctx, b.client, []string{lockKey}, []string{token})
	if n, err := b.GetLocks(ctx, group); err != nil || n >= max {
		return false, err
	}
	return b.Reserve(ctx, group, id)
}
