// Package verifycode pins a one-time code: one handler stores it with a
// plain SET, another reads it, compares it with the request and deletes
// it. That GET, compare and DEL consume a value; they are no owner check
// of a lock. The twin keys are taken with SET NX or never written as
// values here, and their GET-compare-DEL is a release in two round trips.
// A code written out of sight is known by what its reply is compared
// with: a code the user typed, not a holder's token.
package verifycode

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

func SendCode(ctx context.Context, rdb *redis.Client, phone, code string) error {
	return rdb.Set(ctx, fmt.Sprintf("code:%v", phone), code, 5*time.Minute).Err()
}

func LoginByCode(ctx context.Context, rdb *redis.Client, phone, input string) error {
	want, err := rdb.Get(ctx, fmt.Sprintf("code:%v", phone)).Result()
	if err != nil {
		return err
	}
	if input != want {
		return errors.New("wrong code")
	}
	return rdb.Del(ctx, fmt.Sprintf("code:%v", phone)).Err()
}

func Claim(ctx context.Context, rdb *redis.Client, job, token string) (bool, error) {
	return rdb.SetNX(ctx, "claim:"+job, token, time.Minute).Result()
}

func Finish(ctx context.Context, rdb *redis.Client, job, token string) error {
	if rdb.Get(ctx, "claim:"+job).Val() != token {
		return errors.New("not ours")
	}
	return rdb.Del(ctx, "claim:"+job).Err() // want "GET on line \\d+ and this DEL of lock key `\"claim:\" \\+ job` are two round trips"
}

func Abandon(ctx context.Context, rdb *redis.Client, task, owner string) error {
	if rdb.Get(ctx, "task:"+task+":owner").Val() == owner {
		return rdb.Del(ctx, "task:"+task+":owner").Err() // want "GET on line \\d+ and this DEL of lock key `\"task:\" \\+ task \\+ \":owner\"` are two round trips"
	}
	return nil
}

// Silent: a code stored by another service (nothing here writes it),
// read, compared with what the user typed and deleted.
func ValidateSmsCode(ctx context.Context, rdb *redis.Client, phone, code string) error {
	key := "global:captcha_codes:" + phone
	saved, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	defer rdb.Del(ctx, key)
	if saved != code {
		return errors.New("wrong code")
	}
	return nil
}

// Must report: the same shape, compared with a holder's token.
func Handback(ctx context.Context, rdb *redis.Client, shard, token string) error {
	key := "shard:" + shard
	saved, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if saved != token {
		return errors.New("not ours")
	}
	return rdb.Del(ctx, key).Err() // want "GET on line \\d+ and this DEL of lock key `key` are two round trips"
}
