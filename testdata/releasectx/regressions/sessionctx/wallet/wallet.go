// Package wallet locks a wallet address while it reads and updates it,
// and defers the release under the session context it is given.
package wallet

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"locklint.test/releasectx/regressions/sessionctx/session"
)

type Service struct{ rdb *redis.Client }

const releaseScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func load(context.Context, string) (any, error) { return nil, nil }

func (s *Service) GetByAddress(sessCtx session.SessionContext, address string) (any, error) { // want GetByAddress:"defers a release under parameter 0 at wallet.go:28"
	token := uuid.NewString()
	ok, err := s.rdb.SetNX(sessCtx, "lock:wallet:"+address, token, time.Minute).Result()
	if err != nil || !ok {
		return nil, errors.New("busy")
	}
	defer s.rdb.Eval(sessCtx, releaseScript, []string{"lock:wallet:" + address}, token)
	return load(sessCtx, address)
}
