package library

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/fixredigo"
	"github.com/locklint/locklint/analyzer/fix/lock"
	goredis "github.com/redis/go-redis/v9"
)

func work() {}

// The error is discarded: on any failure l is nil and the work runs.
func errorBlank(ctx context.Context, rdb *goredis.Client) {
	l, _ := fix.Obtain(ctx, rdb, "lock:report", time.Minute) // want "error of `fix\\.Obtain` discarded: the code after it runs without the lock when it is not obtained; return on the error$"
	defer l.Release(ctx)
	work()
}

// Near miss: the lock itself is compared with nil.
func lockNilChecked(ctx context.Context, rdb *goredis.Client) {
	l, _ := fix.Obtain(ctx, rdb, "lock:report", time.Minute)
	if l == nil {
		return
	}
	defer l.Release(ctx)
	work()
}

// Only ErrNotObtained returns; a network error runs the work unlocked.
func notObtainedOnly(ctx context.Context, rdb *goredis.Client) {
	l, err := fix.Obtain(ctx, rdb, "lock:report", time.Minute) // want "only `fix\\.Obtain`'s not-obtained error is checked: any other error runs the code after it without the lock; return on every error$"
	if errors.Is(err, fix.ErrNotObtained) {
		return
	}
	defer l.Release(ctx)
	work()
}

// ErrNotObtained is only logged; the work runs when another holds the
// lock.
func notObtainedLogged(ctx context.Context, rdb *goredis.Client) error {
	l, err := fix.Obtain(ctx, rdb, "lock:report", time.Minute) // want "`fix\\.Obtain`'s not-obtained error is only logged: the code after it runs without the lock when another holds it; return on it$"
	if errors.Is(err, fix.ErrNotObtained) {
		log.Print("report: lock held elsewhere")
	} else if err != nil {
		return err
	}
	defer l.Release(ctx)
	work()
	return nil
}

// Near miss: ErrNotObtained apart, and every other error too.
func everyError(ctx context.Context, rdb *goredis.Client) error {
	l, err := fix.Obtain(ctx, rdb, "lock:report", time.Minute)
	if errors.Is(err, fix.ErrNotObtained) {
		return nil
	}
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	work()
	return nil
}

// The core through an adapter: the error is never read.
func coreErrorUnread(ctx context.Context, conn redis.Conn) {
	l, err := lock.Obtain(ctx, fixredigo.Conn(conn), "lock:report", time.Minute) // want "error of `lock\\.Obtain` never read"
	_ = err
	defer l.Release(ctx)
	work()
}

// Near miss: the core's error checked and logged.
func coreChecked(ctx context.Context, conn redis.Conn) {
	l, err := lock.Obtain(ctx, fixredigo.Conn(conn), "lock:report", time.Minute)
	if err != nil {
		log.Print(err)
		return
	}
	defer l.Release(ctx)
	work()
}

// Near miss: the lock handed to the caller, who checks.
func obtain(ctx context.Context, rdb *goredis.Client) (*fix.Lock, error) {
	return fix.Obtain(ctx, rdb, "lock:report", time.Minute)
}

// A hand-rolled acquire released through the library: the key is held.
func releasedByLibrary(ctx context.Context, rdb *goredis.Client, token string) error {
	if err := rdb.SetNX(ctx, "lock:export", token, time.Minute).Err(); err != nil { // want "only the error of SET NX is checked"
		return err
	}
	defer fix.Release(ctx, rdb, "lock:export", token)
	work()
	return nil
}
