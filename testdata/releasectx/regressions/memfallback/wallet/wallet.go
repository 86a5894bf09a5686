// Package wallet rotates a wallet's deposit address under the port's
// lock and defers its release under the caller's context.
package wallet

import (
	"context"
	"errors"
	"time"

	"locklint.test/releasectx/regressions/memfallback/lock"
)

type Policy struct {
	Locker lock.Locker
	Store  lock.Store
	derive func(ctx context.Context, wallet string) error
}

func (p *Policy) Rotate(ctx context.Context, wallet string) error { // want Rotate:"defers a release under parameter 0 at wallet.go:27"
	token, ok, err := p.Locker.Acquire(ctx, "addr:"+wallet, 10*time.Second)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("rotation already in progress")
	}
	defer func() { _ = p.Locker.Release(ctx, "addr:"+wallet, token) }()
	return p.derive(ctx, wallet)
}

func (p *Policy) RotateStore(ctx context.Context, wallet string) error {
	token, ok, err := p.Locker.Acquire(ctx, "addr:"+wallet, 10*time.Second)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("rotation already in progress")
	}
	defer func() { _ = p.Store.Release(ctx, "addr:"+wallet, token) }()
	return p.derive(ctx, wallet)
}
