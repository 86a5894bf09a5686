// Package idemmarker pins markers that an idempotency or dedupe check
// writes with SETNX and a constant, none of which is a lock: a purchase
// marker kept until the sale ends and deleted only when the order failed
// (the take is followed by a delete in the same function, but only on
// the failure path); a report marker that helpers named Idem take and
// undo; a request's "pending" status, written under a key built in either
// branch from the request's key and overwritten with the response. No
// command compares their values, so a constant protects nothing. The
// twin is a lock on the sale's stock, given back after the work through
// a compare-and-delete that every holder's "1" passes.
package idemmarker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
)

type Sale struct {
	rdb   *redis.Client
	order func(user, activity uint) error
}

// Near miss (silent): undone only when the order failed.
func (s *Sale) Purchase(ctx context.Context, user, activity uint, ends time.Time) error {
	key := fmt.Sprintf("seckill:user:%d:%d", user, activity)
	first, err := s.rdb.SetNX(ctx, key, 1, time.Until(ends)).Result()
	if err != nil {
		return err
	}
	if !first {
		return errors.New("already purchased")
	}
	if err := s.order(user, activity); err != nil {
		s.rdb.Del(ctx, key)
		return err
	}
	return nil
}

var releaseIfOwner = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// Must report: every holder's "1" passes the owner check.
func (s *Sale) Restock(ctx context.Context, activity uint) error {
	key := fmt.Sprintf("seckill:stock:%d", activity)
	ok, err := s.rdb.SetNX(ctx, key, "1", 10*time.Second).Result() // want "lock key `key` acquired with a non-unique token \\(the constant `\"1\"`\\)"
	if err != nil || !ok {
		return err
	}
	defer releaseIfOwner.Run(ctx, s.rdb, []string{key}, "1")
	return s.order(0, activity)
}

// Near miss (silent): a report's marker behind helpers named Idem.
func IdemKey(key string) string { return "keypool:idem:" + key }

func (s *Sale) IdemSet(ctx context.Context, key string) (bool, error) {
	return s.rdb.SetNX(ctx, IdemKey(key), 1, 10*time.Minute).Result()
}

func (s *Sale) IdemDel(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, IdemKey(key)).Err()
}

// Near miss (silent): the pending status of one request.
func (s *Sale) Pending(next http.Handler, userID int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		idempotencyKey := r.Header.Get("Idempotency-Key")
		var cacheKey string
		if userID != 0 {
			cacheKey = fmt.Sprintf("idempotent:%d:%s", userID, idempotencyKey)
		} else {
			cacheKey = fmt.Sprintf("idempotent:%s:%s", r.RemoteAddr, idempotencyKey)
		}
		ctx := r.Context()
		if v, err := s.rdb.Get(ctx, cacheKey).Result(); err == nil && v != "" {
			w.Write([]byte(v))
			return
		}
		if _, err := s.rdb.SetNX(ctx, cacheKey, "pending", 10*time.Minute).Result(); err != nil {
			return
		}
		next.ServeHTTP(w, r)
		s.rdb.Set(ctx, cacheKey, "done", 10*time.Minute)
	})
}
