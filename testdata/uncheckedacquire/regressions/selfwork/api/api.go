// Package api restarts every session, dropping each start's error: the
// start did its own work under its lock, or did nothing. Dropping
// Acquire's error is the bug: the restart runs whether or not the lock
// was taken.
package api

import (
	"context"
	"errors"
	"log"

	"locklint.test/uncheckedacquire/regressions/selfwork/sessions"
)

func RestartAll(store sessions.Store, pub sessions.Publisher, ids []int) {
	for _, id := range ids {
		_ = sessions.Start(store, pub, id)
	}
	_ = pub.Publish("sessions.restarted", nil)
}

func Restart(id int, restart func(int)) {
	_ = sessions.Acquire(id) // want "error of `sessions.Acquire` discarded"
	restart(id)
}

func Refresh(ctx context.Context, id int, refresh func(int)) {
	unlock, err := sessions.TryLock(ctx, "lock:refresh") // want "`sessions.TryLock`'s not-obtained error is only logged"
	if errors.Is(err, sessions.ErrLocked) {
		return
	}
	if err != nil {
		log.Printf("lock: %v", err)
	} else {
		defer unlock()
	}
	refresh(id)
}
