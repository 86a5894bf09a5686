// Package nillock pins a game bot's retry of a helper that returns a nil
// lock on any failure: GetStateAndLock obtains "<game>:lock" with
// bsm/redislock (a few attempts apart) and returns nil when the lock is
// held and when Redis failed, and its callers loop "for lock == nil"
// until it is not. While Redis is down, or a holder keeps the lock,
// the loop never ends: reported, in the loop's own function and in the
// handlers that do the same. The near misses count their attempts, and
// stop on a deadline fixed before the loop.
package nillock

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

type State struct{ Code string }

type Store struct {
	client *redis.Client
}

func (s *Store) GetStateAndLock(game string) (*redislock.Lock, *State) {
	locker := redislock.New(s.client)
	lock, err := locker.Obtain(ctx, game+":lock", 250*time.Millisecond, &redislock.Options{
		RetryStrategy: redislock.LimitRetry(redislock.LinearBackoff(10*time.Millisecond), 10),
	})
	if errors.Is(err, redislock.ErrNotObtained) {
		return nil, nil
	} else if err != nil {
		log.Println(err)
		return nil, nil
	}
	return lock, &State{Code: game}
}

func (s *Store) LockVoice(game string) *redislock.Lock {
	lock, err := redislock.Obtain(ctx, s.client, game+":voice:lock", time.Second, nil)
	if err != nil {
		return nil
	}
	return lock
}

func (s *Store) Save(*State, *redislock.Lock) {}

type Bot struct{ store *Store }

func (b *Bot) Resubscribe(games []string) {
	for _, g := range games {
		lock, st := b.store.GetStateAndLock(g)
		for lock == nil { // want "lock acquisition retried with no bound"
			lock, st = b.store.GetStateAndLock(g)
		}
		b.store.Save(st, lock)
		_ = lock.Release(ctx)
	}
}

func (b *Bot) Mute(game string) {
	lock := b.store.LockVoice(game)
	for lock == nil { // want "lock acquisition retried with no bound"
		time.Sleep(50 * time.Millisecond)
		lock = b.store.LockVoice(game)
	}
	defer lock.Release(ctx)
}

// Near miss: a count of attempts.
func (b *Bot) StateRetries(game string, retries int) (*redislock.Lock, *State) {
	lock, st := b.store.GetStateAndLock(game)
	var i int
	for lock == nil && i < retries {
		lock, st = b.store.GetStateAndLock(game)
		i++
	}
	return lock, st
}

// Near miss: a deadline fixed before the loop.
func (b *Bot) MuteUntil(game string) bool {
	deadline := time.Now().Add(2 * time.Second)
	lock := b.store.LockVoice(game)
	for lock == nil {
		if time.Now().After(deadline) {
			return false
		}
		lock = b.store.LockVoice(game)
	}
	defer lock.Release(ctx)
	return true
}
