// Package biz pins the held-out miss of a kratos order use case
// (morphix's UpdateOrderStatus): the use case takes the order's lock
// through the port and defers Unlock under the gRPC call's context,
// which the server ends at its timeout or when the caller cancels; an
// update that overruns fails the release unsent and the order stays
// locked for its TTL. The near misses detach the release, or unlock
// through a port whose implementations may detach it.
package biz

import (
	"context"
	"time"

	"locklint.test/releasectx/regressions/twolockers/lock"
	"locklint.test/releasectx/regressions/twolockers/orderv1"
)

type OrderUseCase struct {
	locker lock.Locker
	mixed  lock.Mixed
	update func(ctx context.Context, number, status string) error
}

// Must report: the call's context, through the port.
func (b *OrderUseCase) UpdateOrderStatus(ctx context.Context, req *orderv1.UpdateOrderStatusRequest) (*orderv1.UpdateOrderStatusResponse, error) {
	key := "order:" + req.OrderNumber
	if err := b.locker.Lock(ctx, key, 10*time.Second); err != nil {
		return nil, err
	}
	defer b.locker.Unlock(ctx, key) // want "deferred `b.locker.Unlock`: `ctx` is gRPC handler `UpdateOrderStatus`'s, cancelled with the call"
	return &orderv1.UpdateOrderStatusResponse{}, b.update(ctx, req.OrderNumber, req.Status)
}

// Near miss (silent): the release outlives the call.
func (b *OrderUseCase) UpdateOrderStatusDetached(ctx context.Context, req *orderv1.UpdateOrderStatusRequest) (*orderv1.UpdateOrderStatusResponse, error) {
	key := "order:" + req.OrderNumber
	if err := b.locker.Lock(ctx, key, 10*time.Second); err != nil {
		return nil, err
	}
	defer b.locker.Unlock(context.WithoutCancel(ctx), key)
	return &orderv1.UpdateOrderStatusResponse{}, b.update(ctx, req.OrderNumber, req.Status)
}

// Near miss (silent): either implementation may release, and one
// detaches.
func (b *OrderUseCase) UpdateOrderStatusMixed(ctx context.Context, req *orderv1.UpdateOrderStatusRequest) (*orderv1.UpdateOrderStatusResponse, error) {
	key := "order:" + req.OrderNumber
	if err := b.locker.Lock(ctx, key, 10*time.Second); err != nil {
		return nil, err
	}
	defer b.mixed.Unlock(ctx, key)
	return &orderv1.UpdateOrderStatusResponse{}, b.update(ctx, req.OrderNumber, req.Status)
}
