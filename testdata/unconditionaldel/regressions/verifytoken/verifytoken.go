// Package verifytoken pins issue 32's shape 1, a verification token: the
// sign-up handler stores a random token for the address with SETEX, and
// the confirm handler reads it, compares it with the link's token in Go
// and deletes it. The GET-compare before the DEL consumes a one-time
// value; nothing ever took the key with NX, so it is no owner check of a
// lock. The twin is a claim taken with SETNX and a token, released by the
// same GET, compare and DEL: a lock released in two round trips.
package verifytoken

import (
	"context"
	"crypto/subtle"
	"errors"

	"github.com/google/uuid"
	"github.com/zeromicro/go-zero/core/stores/redis"
)

var ErrBadToken = errors.New("verification link is invalid or expired")

type Verifier struct {
	rds *redis.Redis
}

func verifyKey(email string) string { return "verify:email:" + email }

func (v *Verifier) Start(ctx context.Context, email string) (string, error) {
	token := uuid.NewString()
	return token, v.rds.SetexCtx(ctx, verifyKey(email), token, 24*3600)
}

// Near miss (silent): GET, compare, DEL of a one-time value.
func (v *Verifier) Confirm(ctx context.Context, email, token string) error {
	want, err := v.rds.GetCtx(ctx, verifyKey(email))
	if err != nil {
		return err
	}
	if want == "" || subtle.ConstantTimeCompare([]byte(want), []byte(token)) != 1 {
		return ErrBadToken
	}
	_, err = v.rds.DelCtx(ctx, verifyKey(email))
	return err
}

// ClaimResend keeps two resends of one address from racing.
func (v *Verifier) ClaimResend(ctx context.Context, email, owner string) (bool, error) {
	return v.rds.SetnxExCtx(ctx, "resend:"+email, owner, 30)
}

// Must report: the claim's release compares its owner in Go, then deletes.
func (v *Verifier) FinishResend(ctx context.Context, email, owner string) error {
	cur, err := v.rds.GetCtx(ctx, "resend:"+email)
	if err != nil {
		return err
	}
	if cur != owner {
		return nil
	}
	_, err = v.rds.DelCtx(ctx, "resend:"+email) // want "GET on line \\d+ and this DEL of lock key `\"resend:\" \\+ email` are two round trips"
	return err
}
