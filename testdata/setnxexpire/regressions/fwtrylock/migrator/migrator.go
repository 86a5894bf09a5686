// Package migrator pins a service template's start-up migration lock
// taken through the framework's TryLock with an expiry of 0: SETNX with
// no TTL, so a replica that dies while it migrates leaves the key for
// good and every later start fails: reported. The near miss gives the
// lock an expiry.
package migrator

import (
	"context"
	"fmt"
	"time"

	"locklint.test/setnxexpire/regressions/fwtrylock/fwredis"
)

type Prefix int32

const PrefixMigrate Prefix = 3

func (p Prefix) String() string { return "PrefixMigrate" }

func serviceID() string { return "ledger-gateway" }

func lockKey() string {
	return fmt.Sprintf("%v:%v", PrefixMigrate, serviceID())
}

func migrate(context.Context) error { return nil }

func Migrate(ctx context.Context) (err error) {
	err = fwredis.TryLock(lockKey(), 0) // want "lock key `lockKey\\(\\)` acquired with no expiry"
	if err != nil {
		return err
	}
	defer func() { _ = fwredis.Unlock(lockKey()) }()
	return migrate(ctx)
}

func MigrateBounded(ctx context.Context) (err error) {
	err = fwredis.TryLock(lockKey()+":v2", time.Minute)
	if err != nil {
		return err
	}
	defer func() { _ = fwredis.Unlock(lockKey() + ":v2") }()
	return migrate(ctx)
}

// Handler runs a subsystem on the replica that holds its lock: NewHandler
// tries once, retryLock every minute, Finalize gives it back. Each take
// has no expiry: reported at both.
type Handler struct {
	subsystem string
	locked    bool
}

func (h *Handler) lockKey() string {
	return fmt.Sprintf("%v:%v", PrefixMigrate, h.subsystem)
}

func NewHandler(subsystem string) *Handler {
	h := &Handler{subsystem: subsystem}
	if err := fwredis.TryLock(h.lockKey(), 0); err == nil { // want "lock key `h.lockKey\\(\\)` acquired with no expiry"
		h.locked = true
	}
	return h
}

func (h *Handler) retryLock(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Minute):
			if err := fwredis.TryLock(h.lockKey(), 0); err == nil { // want "lock key `h.lockKey\\(\\)` acquired with no expiry"
				h.locked = true
				return
			}
		}
	}
}

func (h *Handler) Run(ctx context.Context) {
	if !h.locked {
		h.retryLock(ctx)
	}
}

func (h *Handler) Finalize() {
	if h.locked {
		_ = fwredis.Unlock(h.lockKey())
	}
}
