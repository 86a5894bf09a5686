// Package state holds the Redis client behind a narrow interface of its
// own, so that its tests can give it a fake: in the build, the one type
// that implements it is the imported redisx.Client, whose Unlock releases
// under the context it is given. Report defers that release under its
// own context parameter.
package state

import (
	"context"
	"errors"

	"locklint.test/releasectx/regressions/narrowiface/redisx"
)

var ErrBusy = errors.New("state: channel busy")

type redisOps interface {
	Lock(ctx context.Context, cid int) (string, bool, error)
	Unlock(ctx context.Context, cid int, token string) error // want Unlock:"releases under parameter 0"
}

type Manager struct {
	redis redisOps
	apply func(ctx context.Context, cid int) error
}

func NewManager(rdb *redisx.Client, apply func(ctx context.Context, cid int) error) *Manager {
	return &Manager{redis: rdb, apply: apply}
}

func (m *Manager) Report(ctx context.Context, cid int) error { // want Report:"defers a release under parameter 0 at state.go:39"
	token, ok, err := m.redis.Lock(ctx, cid)
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer func() { _ = m.redis.Unlock(ctx, cid, token) }()
	return m.apply(ctx, cid)
}
