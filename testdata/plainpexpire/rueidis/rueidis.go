package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

type Election struct {
	client rueidis.Client
	key    string
	me     string
	ttl    time.Duration
}

func (e *Election) Campaign(ctx context.Context) (bool, error) {
	err := e.client.Do(ctx, e.client.B().Set().Key(e.key).Value(e.me).Nx().Px(e.ttl).Build()).Error()
	if rueidis.IsRedisNil(err) {
		return false, nil
	}
	return err == nil, err
}

// Renewal by key alone, built with the command builder.
func (e *Election) KeepAlive(ctx context.Context) error {
	return e.client.Do(ctx, e.client.B().Pexpire().Key(e.key).Milliseconds(e.ttl.Milliseconds()).Build()).Error() // want "PEXPIRE of lock key `e\\.key` without an owner check; renew with `lock\\.Refresh` via `fixrueidis\\.Client` \\(SET IFEQ or compare-and-PEXPIRE\\)$"
}

// Near miss: SET IFEQ, owner-checked in the server.
func (e *Election) KeepAliveIFEQ(ctx context.Context) error {
	cmd := e.client.B().Set().Key(e.key).Value(e.me).Ifeq(e.me).Px(e.ttl).Build()
	return e.client.Do(ctx, cmd).Error()
}

// Near miss: a counter window, not a lock.
func hit(ctx context.Context, c rueidis.Client, bucket string) {
	c.Do(ctx, c.B().Expire().Key("hits:"+bucket).Seconds(60).Build())
}
