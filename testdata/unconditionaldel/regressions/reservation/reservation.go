// Package reservation pins the held-out false report on a reservation
// record under the node's own id (heathcliff26/fleetlock's shape, on
// valkey-go): a node reserves a reboot slot by SETNX of group:<g>,id:<node>
// and deletes that key in Release(group, id). Only that node writes the
// key, so the DEL can remove no one else's: a record's cleanup, not a
// release without an owner check. The twin is a group-wide mutex that
// every node contends for, deleted with a plain DEL.
package reservation

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/valkey-io/valkey-go"
)

type ValkeyBackend struct {
	client valkey.Client
}

func slotKey(group, id string) string { return fmt.Sprintf("group:%s,id:%s", group, id) }

func (b *ValkeyBackend) Reserve(ctx context.Context, group, id string) (bool, error) {
	k := slotKey(group, id)
	ok, err := b.client.Do(ctx, b.client.B().Setnx().Key(k).Value(time.Now().String()).Build()).AsBool()
	if err != nil || !ok {
		return ok, err
	}
	return true, b.client.Do(ctx, b.client.B().Sadd().Key(group).Member(k).Build()).Error()
}

// Near miss (silent): the node deletes its own reservation record.
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

// Must report: the group-wide mutex is deleted whoever holds it.
func (b *ValkeyBackend) ReserveBounded(ctx context.Context, group, id string, max int64) (bool, error) {
	lockKey := "lock:group:" + group
	ok, err := b.client.Do(ctx, b.client.B().Set().Key(lockKey).Value(uuid.NewString()).Nx().Px(10*time.Second).Build()).AsBool()
	if err != nil || !ok {
		return false, err
	}
	defer b.client.Do(ctx, b.client.B().Del().Key(lockKey).Build()) // want "DEL of lock key `lockKey` without an owner check"
	if n, err := b.GetLocks(ctx, group); err != nil || n >= max {
		return false, err
	}
	return b.Reserve(ctx, group, id)
}
