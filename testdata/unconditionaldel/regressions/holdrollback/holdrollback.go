// Package holdrollback pins a seat hold taken with SETNX for the buyer
// and kept on success (the booking releases it later), whose every
// failure after the take gives it back with DEL before returning: a
// read, a decode, a state check, and the write that marks the seat held.
// The key was set a round trip or two before by this call, under a
// 30-second lease, so the DEL removes this buyer's own hold. The GET on
// the take's miss (who holds it?) is no owner check of those DELs. The
// booking's GET, compare in Go, write and DEL is one: it is reported.
// So is the twin, SelectPaid, whose last guard follows a charge to the
// buyer's card: work nothing bounds, after which the hold may have lapsed
// and be another buyer's; and SelectAnnounced, whose guard follows a
// helper of the package that sends a Redis command but also posts to a
// web hook first.
package holdrollback

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

const holdFor = 30 * time.Second

type seat struct {
	Status string `json:"status"`
	HeldBy string `json:"held_by"`
}

type payments interface {
	Charge(ctx context.Context, user string) error
}

type venue struct {
	rdb *redis.Client
	pay payments
}

func holdKey(id string) string { return fmt.Sprintf("seat:lock:%s", id) }

func (v *venue) Select(ctx context.Context, id, user string) error {
	key := holdKey(id)
	ok, err := v.rdb.SetNX(ctx, key, user, holdFor).Result()
	if err != nil {
		return err
	}
	if !ok {
		holder, _ := v.rdb.Get(ctx, key).Result()
		if holder == user {
			return errors.New("you already hold this seat")
		}
		return errors.New("seat held by another buyer")
	}
	raw, err := v.rdb.HGet(ctx, "venue:seats", id).Result()
	if err != nil {
		v.rdb.Del(ctx, key)
		return err
	}
	var s seat
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		v.rdb.Del(ctx, key)
		return err
	}
	if s.Status == "booked" {
		v.rdb.Del(ctx, key)
		return errors.New("seat already booked")
	}
	s.Status, s.HeldBy = "held", user
	out, err := json.Marshal(s)
	if err != nil {
		v.rdb.Del(ctx, key)
		return err
	}
	if err := v.rdb.HSet(ctx, "venue:seats", id, out).Err(); err != nil {
		v.rdb.Del(ctx, key)
		return err
	}
	return nil
}

// Book checks the holder in one round trip and deletes in another,
// after more work: a hold that lapsed in between is another buyer's.
func (v *venue) Book(ctx context.Context, id, user string) error {
	key := holdKey(id)
	holder, err := v.rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if holder != user {
		return errors.New("not your hold")
	}
	raw, err := v.rdb.HGet(ctx, "venue:seats", id).Result()
	if err != nil {
		return err
	}
	var s seat
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return err
	}
	s.Status = "booked"
	out, _ := json.Marshal(s)
	if err := v.rdb.HSet(ctx, "venue:seats", id, out).Err(); err != nil {
		return err
	}
	v.rdb.Del(ctx, key) // want "GET on line [0-9]+ and this DEL of lock key `key` are two round trips"
	return nil
}

func (v *venue) SelectPaid(ctx context.Context, id, user string) error {
	key := holdKey(id)
	ok, err := v.rdb.SetNX(ctx, key, user, holdFor).Result()
	if err != nil || !ok {
		return errors.New("seat held by another buyer")
	}
	if err := v.pay.Charge(ctx, user); err != nil {
		v.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
		return err
	}
	return v.rdb.HSet(ctx, "venue:seats", id, "held:"+user).Err()
}

// announce posts the hold to a web hook unless the announcement key says
// it was posted: a command sent through a helper that does more than
// send it.
func (v *venue) announce(ctx context.Context, announcedKey, id string) error {
	if done, err := v.rdb.Get(ctx, announcedKey).Result(); err == nil && done == "1" {
		return nil
	}
	resp, err := http.Post("http://hooks.internal/held", "text/plain", strings.NewReader(id))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (v *venue) SelectAnnounced(ctx context.Context, id, user string) error {
	key := holdKey(id)
	ok, err := v.rdb.SetNX(ctx, key, user, holdFor).Result()
	if err != nil || !ok {
		return errors.New("seat held by another buyer")
	}
	if err := v.announce(ctx, "seat:announced:"+id, id); err != nil {
		v.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
		return err
	}
	return nil
}
