// Package verifycode pins a one-time code: one handler stores it with a
// plain SET, another reads it, compares it with the request and deletes
// it. That GET, compare and DEL consume a value; they are no owner check
// of a lock. The twin keys are taken with SET NX or never written as
// values here, and their GET-compare-DEL is a release in two round trips.
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
