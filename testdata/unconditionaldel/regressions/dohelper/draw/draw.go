// Package draw takes a per-user lock for each lottery draw through the
// cache's Do.
package draw

import (
	"fmt"

	"locklint.test/unconditionaldel/regressions/dohelper/cache"
)

func lockKey(uid int) string { return fmt.Sprintf("draw_lock_%d", uid) }

func Lock(uid int) bool {
	rs, _ := cache.Instance().Do("SET", lockKey(uid), 1, "EX", 3, "NX")
	return rs == "OK"
}

func Unlock(uid int) bool {
	rs, _ := cache.Instance().Do("DEL", lockKey(uid)) // want "DEL of lock key `lockKey\\(uid\\)` without an owner check"
	return rs == "OK"
}

// Near miss: the day's counters through the same Do are not a lock.
func ResetDay(day int) {
	cache.Instance().Do("DEL", fmt.Sprintf("day_ips_%d", day))
}
