// Package verifysetnx pins a verification code stored with SETNX: one
// handler writes a math/rand code under the phone's key (not over an
// unexpired one) and mails it, another reads it, compares it with what
// the user typed and deletes it. The SETNX guards no work and nothing
// compares the value with a holder's token: a record consumed once, not
// a lock. The twins take a key the same way and compare it with the
// caller's token before the DEL: a release in two round trips, and its math/rand token is what the
// check compares.
package verifysetnx

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

type Mailer interface {
	Send(to, body string) error
}

type Input interface {
	Input(name string) string
}

type Auth struct {
	rdb  *redis.Client
	mail Mailer
}

func newCode() string {
	return fmt.Sprintf("%06d", rand.Intn(1000000))
}

func (a *Auth) SendCode(ctx context.Context, id, phone string) error {
	code := newCode()
	if err := a.mail.Send(phone, "your code is "+code); err != nil {
		return err
	}
	if err := a.rdb.SetNX(ctx, fmt.Sprintf("auth:verify-code:%s:%s", id, phone), code, 15*time.Minute).Err(); err != nil {
		return err
	}
	// The rate of mails to the phone.
	if err := a.rdb.Incr(ctx, "auth:mail-rate:"+phone).Err(); err != nil {
		return err
	}
	return nil
}

func (a *Auth) SignIn(ctx context.Context, in Input) error {
	id, phone := in.Input("id"), in.Input("phone")
	verifyCode := strings.TrimSpace(in.Input("verify_code"))
	if verifyCode == "" {
		return errors.New("empty code")
	}
	real, err := a.rdb.Get(ctx, fmt.Sprintf("auth:verify-code:%s:%s", id, phone)).Result()
	if err != nil {
		return errors.New("code expired")
	}
	if real != verifyCode {
		return errors.New("wrong code")
	}
	_ = a.rdb.Del(ctx, fmt.Sprintf("auth:verify-code:%s:%s", id, phone)).Err()
	return nil
}

// Must report: a job's key taken with SETNX and a token, and given back
// by a GET, a compare with the holder's token and a DEL.
func (a *Auth) Claim(ctx context.Context, job string) (string, error) {
	token := newCode()
	ok, err := a.rdb.SetNX(ctx, fmt.Sprintf("job:%s", job), token, time.Minute).Result() // want "lock key .* acquired with a non-unique token \\(math/rand, returned by `newCode`\\)"
	if err != nil || !ok {
		return "", errors.New("busy")
	}
	return token, nil
}

func (a *Auth) Done(ctx context.Context, job, token string) error {
	cur, err := a.rdb.Get(ctx, fmt.Sprintf("job:%s", job)).Result()
	if err != nil {
		return err
	}
	if cur != token {
		return errors.New("not ours")
	}
	return a.rdb.Del(ctx, fmt.Sprintf("job:%s", job)).Err()
}
