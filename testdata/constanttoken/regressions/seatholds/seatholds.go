// Package seatholds pins a bus-ticket service's seat holds: a request
// takes one hold per seat with SETNX of the user's id, skips a seat the
// user already holds (a GET compared with the id), and gives back the
// holds it took, then fails, when another user holds a seat. The GET
// only reads who holds the key: it gives nothing back, so the take that
// follows it is no take again after a release; the give-back ends the
// call: silent. The twin takes one key round after round with the same
// token, given back by an owner check between rounds: a release still in
// flight from one round passes the owner check of the next. Reported.
package seatholds

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const holdTTL = time.Minute

var ErrTaken = errors.New("one or more seats already held")

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

type Seats struct {
	rdb *redis.Client
}

// Near miss (silent): one key per seat.
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
				release.Run(ctx, s.rdb, []string{k}, user)
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

// Must report: the same key, round after round, with the same token.
func (s *Seats) Rounds(ctx context.Context, trip string, user string, rounds []func()) {
	key := fmt.Sprintf("trip_round:%s", trip)
	for _, round := range rounds {
		ok, err := s.rdb.SetNX(ctx, key, user, holdTTL).Result() // want "lock key `key` acquired again with token `user` after the release on line"
		if err != nil || !ok {
			continue
		}
		round()
		release.Run(ctx, s.rdb, []string{key}, user)
	}
}
