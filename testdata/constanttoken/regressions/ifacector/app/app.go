// Package app pins a constant given to a lock package's constructor that
// returns the lock as an interface (task-scheduler's two schedulers, a
// sixteenth-half miss): every instance stores "scheduler-lock", and an
// instance whose lease lapsed passes the owner check of the lock another
// instance then took. The near miss gives each process a fresh identity.
package app

import (
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"locklint.test/constanttoken/regressions/ifacector/dlock"
)

// Must report: both identities are constants.
func Locks(rc *redis.Client) (dlock.DistributedLock, dlock.DistributedLock) {
	task := dlock.NewRedisLock(rc, "scheduler-lock")   // want "non-unique token .*`\"scheduler-lock\"`"
	delay := dlock.NewRedisLock(rc, "scheduler-delay") // want "non-unique token .*`\"scheduler-delay\"`"
	return task, delay
}

// Near miss (silent): a random identity for this process.
func Fresh(rc *redis.Client) dlock.DistributedLock {
	return dlock.NewRedisLock(rc, "scheduler-"+uuid.NewString())
}
