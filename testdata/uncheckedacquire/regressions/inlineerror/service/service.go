// Package service places and cancels orders under the lock of package
// lock. Where Lock's error is only printed, the order work runs beside
// the holder; the near misses leave on the error.
package service

import (
	"fmt"
	"time"

	"locklint.test/uncheckedacquire/regressions/inlineerror/lock"
)

var l *lock.RedisLock

// Must report: the error, how Lock says the lock is held, is only
// printed, and the order is placed anyway.
func PlaceOrder(user, item string) error {
	key := fmt.Sprintf("lock:order:%s:%s", user, item)
	id, err := l.Lock(key, 10*time.Second) // want "`l.Lock`'s not-obtained error is only logged"
	if err != nil {
		fmt.Printf("get lock failed: %v\n", err)
	}
	defer l.Unlock(key, id)
	return place(user, item)
}

// Must report: the error is dropped.
func CancelOrder(order string) error {
	key := "lock:cancel:" + order
	id, _ := l.Lock(key, 10*time.Second) // want "error of `l.Lock` discarded"
	defer l.Unlock(key, id)
	return cancel(order)
}

// Silent: a held lock returns.
func Refund(order string) error {
	key := "lock:refund:" + order
	id, err := l.Lock(key, 10*time.Second)
	if err != nil {
		return err
	}
	defer l.Unlock(key, id)
	return cancel(order)
}

// Silent: a held lock skips the pair.
func Match(pairs [][2]string) {
	for _, p := range pairs {
		key := "lock:pair:" + p[0] + ":" + p[1]
		id, err := l.Lock(key, 10*time.Second)
		if err != nil {
			fmt.Printf("get match lock failed: %v\n", err)
			continue
		}
		_ = place(p[0], p[1])
		_ = l.Unlock(key, id)
	}
}

// Silent: a duplicate message is only printed; the record is no lock.
func Consume(msg string) error {
	if err := l.MarkSeen(msg); err != nil {
		fmt.Printf("seen: %v\n", err)
	}
	return place(msg, "")
}

func place(user, item string) error { return nil }
func cancel(order string) error     { return nil }
