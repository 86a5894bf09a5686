// Package tokenrecord pins a verification token's record whose key is
// the token itself: the handler reads it, compares the stored code with
// the request's, and deletes the record after a good code or too many
// tries. The GET-compare-DEL looks like a hand-rolled owner check, but a
// lock's token is its value, never its name, and nothing here takes the
// key. The twin compares the stored value with its own token before the
// DEL, in two round trips.
package tokenrecord

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-redis/redis/v8"
)

type ResetRequest struct {
	Email             string
	VerificationCode  string
	VerificationToken string
}

// Near miss (silent): the token's record, checked and consumed.
func Reset(ctx context.Context, rdb *redis.Client, req ResetRequest) error {
	stored, err := rdb.Get(ctx, req.VerificationToken).Result()
	if err != nil {
		return err
	}
	if stored != fmt.Sprintf("%s-%s", req.VerificationCode, req.Email) {
		if n, _ := rdb.Incr(ctx, "retry:"+req.VerificationToken).Result(); n > 3 {
			rdb.Del(ctx, req.VerificationToken)
		}
		return errors.New("verification failed")
	}
	rdb.Del(ctx, req.VerificationToken)
	return nil
}

// Must report: the holder's own token compared, then a separate DEL.
func Release(ctx context.Context, rdb *redis.Client, key, token string) {
	if rdb.Get(ctx, key).Val() == token {
		rdb.Del(ctx, key) // want "GET on line 42 and this DEL of lock key `key` are two round trips"
	}
}
