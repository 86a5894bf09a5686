// Package sessions starts a messaging session under a ten-second lock on
// its id: Start takes "session:start:<id>" through SetLock with a fresh
// token, returns an error when another start holds it, and otherwise
// does the start itself (writes the status, publishes the command) and
// returns that work's error. The lock guards Start's own work; nothing is
// left for the caller to do under it. Acquire, its near miss, takes the
// same kind of lock and returns at once (after a log line): the caller's
// work is what it guards; so does TryLock, which returns the release as a
// closure.
package sessions

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	Client *redis.Client
	ctx    = context.Background()
)

type Publisher interface {
	Publish(topic string, body []byte) error
}

type Store interface {
	SetStatus(id int, status string) error
}

var ErrLocked = errors.New("locked")

func SetLock(key, value string, ttl time.Duration) (bool, error) {
	return Client.SetNX(ctx, key, value, ttl).Result()
}

func DelLock(key string) error {
	return Client.Del(ctx, key).Err()
}

func Start(store Store, pub Publisher, id int) error {
	lockKey := fmt.Sprintf("session:start:%d", id)
	ok, err := SetLock(lockKey, rand.Text(), 10*time.Second)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("ERR_SESSION_STARTING_ALREADY")
	}
	if err := store.SetStatus(id, "opening"); err != nil {
		return err
	}
	return pub.Publish(fmt.Sprintf("session.%d.start", id), nil)
}

func Acquire(id int) error {
	lockKey := fmt.Sprintf("session:start:%d", id)
	ok, err := SetLock(lockKey, rand.Text(), 10*time.Second)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("ERR_SESSION_STARTING_ALREADY")
	}
	log.Printf("session %d locked", id)
	return nil
}

func TryLock(ctx context.Context, key string) (func(), error) {
	token := rand.Text()
	ok, err := Client.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", key, err)
	}
	if !ok {
		return nil, ErrLocked
	}
	return func() {
		Client.Eval(context.Background(), `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{key}, token)
	}, nil
}
