// Package holdoff pins a hold-off flag written with a plain SET: the
// uplink path of a network server sets "device:<eui>:down:lock" to a
// constant for the receive window plus a margin, so that a scheduler in
// another package, which takes the same key with SETNX before it sends,
// keeps off while the device listens. This package takes nothing under
// that key, reads it nowhere and gives it back nowhere: it holds nothing
// that the SET could overwrite. The twins write the same kind of flag
// and later delete it, or check it first: a lock taken with a plain SET,
// which overwrites whoever holds it.
package holdoff

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const downLockTempl = "device:%s:down:lock"

type Uplink struct {
	rdb    *redis.Client
	margin time.Duration
}

type Session struct {
	DevEUI  string
	RXDelay time.Duration
	ClassC  bool
}

// Near miss (silent): the flag keeps the scheduler off; it expires.
func (u *Uplink) setDownlinkLock(ctx context.Context, s *Session) error {
	if !s.ClassC {
		return nil
	}
	key := fmt.Sprintf(downLockTempl, s.DevEUI)
	return u.rdb.Set(ctx, key, "lock", s.RXDelay+u.margin).Err()
}

func (u *Uplink) Handle(ctx context.Context, s *Session, frame []byte) error {
	if err := u.setDownlinkLock(ctx, s); err != nil {
		return err
	}
	return u.rdb.RPush(ctx, "frames:"+s.DevEUI, frame).Err()
}

// Must report: the same kind of flag is deleted once the export is done,
// so the plain SET is the take of a lock held across the export.
type Exporter struct {
	rdb *redis.Client
}

func (e *Exporter) Export(ctx context.Context, id string, export func() error) error {
	key := fmt.Sprintf("export:%s:lock", id)
	if err := e.rdb.Set(ctx, key, "lock", time.Minute).Err(); err != nil { // want "SET of lock key `key` without NX overwrites whoever holds it"
		return err
	}
	defer e.rdb.Del(ctx, key)
	return export()
}

// Must report: checked free first, then set: two callers that check at
// once both go on.
func (e *Exporter) Rebuild(ctx context.Context, id string, rebuild func()) error {
	key := fmt.Sprintf("rebuild:%s:lock", id)
	n, err := e.rdb.Exists(ctx, key).Result()
	if err != nil || n > 0 {
		return err
	}
	if err := e.rdb.Set(ctx, key, "1", time.Minute).Err(); err != nil { // want "SET of lock key `key` without NX overwrites whoever holds it"
		return err
	}
	rebuild()
	return nil
}
