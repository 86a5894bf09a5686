// Package ownnamecompare pins a record kept under a key named for a lock
// whose "release" compares the value with the key's own name: a payment
// gateway keeps each order's one-time code under "OTP_lock:" + order with
// SETNX, hands the code back to its callers, and removes it only when the
// value equals the order's id, which the code never does. The compare
// never holds, so the delete it guards never runs: no lock is released in
// two round trips. The near misses are locks whose compare can hold: one
// storing the order's id as its value, one a token, one a constant.
package ownnamecompare

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Gateway struct{ rdb *redis.Client }

func (g *Gateway) AddOTP(ctx context.Context, otp, order string) (bool, error) {
	return g.rdb.SetNX(ctx, "OTP_lock:"+order, otp, 5*time.Minute).Result()
}

func (g *Gateway) GetOTP(ctx context.Context, order string) (string, error) {
	return g.rdb.Get(ctx, "OTP_lock:"+order).Result()
}

// Silent: the value is an OTP, compared with the order's id.
func (g *Gateway) RemoveOTP(ctx context.Context, order string) error {
	key := fmt.Sprintf("OTP_lock:%s", order)
	val, err := g.rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if val == order {
		return g.rdb.Del(ctx, key).Err()
	}
	return nil
}

type Seats struct{ rdb *redis.Client }

func (s *Seats) Hold(ctx context.Context, seat string) (bool, error) {
	return s.rdb.SetNX(ctx, "seat_lock:"+seat, seat, time.Minute).Result()
}

// Must report: the lock stores the seat's own id, so the compare always
// holds and the two round trips delete whoever holds the seat.
func (s *Seats) Free(ctx context.Context, seat string) error {
	key := "seat_lock:" + seat
	val, err := s.rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if val == seat {
		return s.rdb.Del(ctx, key).Err() // want "GET on line 52 and this DEL of lock key `key` are two round trips"
	}
	return nil
}

type Jobs struct{ rdb *redis.Client }

func (j *Jobs) Take(ctx context.Context, job, token string) (bool, error) {
	return j.rdb.SetNX(ctx, "job_lock:"+job, token, time.Minute).Result()
}

// Must report: a token is compared, the lock's release in two round trips.
func (j *Jobs) Done(ctx context.Context, job, token string) error {
	key := "job_lock:" + job
	val, err := j.rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if val == token {
		return j.rdb.Del(ctx, key).Err() // want "GET on line 71 and this DEL of lock key `key` are two round trips"
	}
	return nil
}

// Must report: the release compares the key's own name, but nothing in
// the package takes the key, so what it holds is unknown.
func (j *Jobs) Drop(ctx context.Context, run string) error {
	key := "run_lock:" + run
	val, err := j.rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if val == run {
		return j.rdb.Del(ctx, key).Err() // want "GET on line 85 and this DEL of lock key `key` are two round trips"
	}
	return nil
}
