// Package redsyncvalue pins a lock package's redsync mutexes whose value
// function reads the clock: redsync's release and extend scripts compare
// the value, so two holders in one tick, or a guessed value, pass each
// other's owner check. So does a helper that returns a constant. The near
// misses: a value function that draws from crypto/rand or a UUID, and
// the library's default.
package redsyncvalue

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/google/uuid"
)

type Locker struct{ rs *redsync.Redsync }

func (l *Locker) NewMutex(name string) *redsync.Mutex {
	return l.rs.NewMutex(name,
		redsync.WithExpiry(10*time.Second),
		redsync.WithGenValueFunc(func() (string, error) { // want "lock values made by `redsync.WithGenValueFunc` are not unique per acquisition \\(`time.Now`\\), and the library compares them; use a crypto/rand token$"
			return fmt.Sprintf("%d", time.Now().UnixNano()), nil
		}),
	)
}

func fixedValue() (string, error) { return "owner", nil }

func (l *Locker) NewFixed(name string) *redsync.Mutex {
	return l.rs.NewMutex(name, redsync.WithGenValueFunc(fixedValue)) // want "lock values made by `redsync.WithGenValueFunc` are not unique per acquisition \\(the constant `\"owner\"`, returned by `fixedValue`\\)"
}

func randomValue() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

func (l *Locker) NewRandom(name string) *redsync.Mutex {
	return l.rs.NewMutex(name, redsync.WithGenValueFunc(randomValue))
}

func (l *Locker) NewUUID(name string) *redsync.Mutex {
	return l.rs.NewMutex(name, redsync.WithGenValueFunc(func() (string, error) {
		return uuid.NewString(), nil
	}))
}

func (l *Locker) NewDefault(name string) *redsync.Mutex {
	return l.rs.NewMutex(name, redsync.WithExpiry(time.Minute))
}
