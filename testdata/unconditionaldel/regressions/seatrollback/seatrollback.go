// Package seatrollback pins a bus-ticket service's seat holds: a request
// takes one hold per seat with SETNX of the user's id, keeps each key it
// took in a slice, and when a later seat is held by someone else gives
// back the holds it took, in a loop that does nothing else, and fails.
// Those keys were taken a few round trips before, by this call: the DEL
// gives back only its own holds: silent. The twin gives back holds that
// the booking kept across its work: reported at the DEL.
package seatrollback

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const holdTTL = time.Minute

var ErrTaken = errors.New("one or more seats already held")

type Seats struct {
	rdb *redis.Client
}

// Near miss (silent): the rollback of this call's own holds.
func (s *Seats) Hold(ctx context.Context, trip string, seats []int, user string) error {
	var taken []string
	for _, seat := range seats {
		key := fmt.Sprintf("seat_hold:%s:%d", trip, seat)
		holder, err := s.rdb.Get(ctx, key).Result()
		if err == nil {
			if holder == user {
				continue
			}
			for _, k := range taken {
				s.rdb.Del(ctx, k)
			}
			return ErrTaken
		}
		if err != redis.Nil {
			return err
		}
		ok, err := s.rdb.SetNX(ctx, key, user, holdTTL).Result()
		if err != nil {
			return err
		}
		if !ok {
			return ErrTaken
		}
		taken = append(taken, key)
	}
	return nil
}

// Must report: the holds are given back after the booking's work, when
// they may have lapsed and been taken by another user.
func (s *Seats) Book(ctx context.Context, trip string, seats []int, user string, book func() error) error {
	var taken []string
	for _, seat := range seats {
		key := fmt.Sprintf("book_hold:%s:%d", trip, seat)
		ok, err := s.rdb.SetNX(ctx, key, user, holdTTL).Result()
		if err != nil || !ok {
			return ErrTaken
		}
		taken = append(taken, key)
	}
	err := book()
	for _, k := range taken {
		s.rdb.Del(ctx, k) // want "DEL of lock key `k` without an owner check"
	}
	return err
}
