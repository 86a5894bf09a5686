// Package draw takes a per-user lock for each lottery draw through the
// cache's Do, and reuses it under negative ids to hand out a gift's codes
// one at a time.
package draw

import (
	"fmt"

	"locklint.test/uncheckedacquire/regressions/dohelper/cache"
)

func lockKey(uid int) string { return fmt.Sprintf("draw_lock_%d", uid) }

func Lock(uid int) bool {
	rs, _ := cache.Instance().Do("SET", lockKey(uid), 1, "EX", 3, "NX")
	return rs == "OK"
}

func Unlock(uid int) {
	cache.Instance().Do("DEL", lockKey(uid))
}

type Codes interface {
	Next(gift int) (string, bool)
	MarkUsed(code string)
}

func GiftCode(gift int, codes Codes) string {
	uid := -gift - 1000000000
	Lock(uid) // want "result of `Lock` discarded"
	defer Unlock(uid)
	code, ok := codes.Next(gift)
	if !ok {
		return ""
	}
	codes.MarkUsed(code)
	return code
}

// Near miss: the draw returns when the lock is held.
func Draw(uid int, codes Codes) string {
	if !Lock(uid) {
		return ""
	}
	defer Unlock(uid)
	code, _ := codes.Next(uid)
	return code
}

// Near miss: a function that takes, works and releases itself reports
// whether it ran; dropping that is no unchecked acquire.
func Settle(uid int) bool {
	rs, _ := cache.Instance().Do("SET", lockKey(uid), 1, "EX", 3, "NX")
	if rs != "OK" {
		return false
	}
	defer cache.Instance().Do("DEL", lockKey(uid))
	return true
}

func SettleAll(uids []int) {
	for _, uid := range uids {
		Settle(uid)
	}
}

// Near miss: a take dropped with no release after it claims the draw
// once, and nothing here runs as if it held a lock.
func Claim(uid int) {
	Lock(uid)
}
