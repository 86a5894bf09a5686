// Package setrelease pins a sorted set cleared by a function named for a
// release: a matchmaker keeps the tickets proposed in a match in a
// sorted set scored by time, and ReleaseAllTickets deletes the set to
// hand every ticket back. A lock is a string key; a key ranged over as a
// sorted set is data, whatever the function that deletes it is called.
// The near miss releases a string key, taken with SET NX, the same way;
// a ZCARD of it by mistake does not make it a set.
package setrelease

import (
	"context"
	"time"

	"github.com/gomodule/redigo/redis"
)

const proposed = "proposed_ticket_ids"

type backend struct{ pool *redis.Pool }

func (b *backend) Propose(ctx context.Context, ids []string) error {
	conn, err := b.pool.GetContext(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	now := time.Now().UnixNano()
	for _, id := range ids {
		if err := conn.Send("ZADD", proposed, now, id); err != nil {
			return err
		}
	}
	return conn.Flush()
}

func (b *backend) Pending(ctx context.Context, since time.Time) ([]string, error) {
	conn, err := b.pool.GetContext(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return redis.Strings(conn.Do("ZRANGEBYSCORE", proposed, since.UnixNano(), "+inf"))
}

func (b *backend) ReleaseAllTickets(ctx context.Context) error {
	conn, err := b.pool.GetContext(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Do("DEL", proposed)
	return err
}

const assignLock = "matchmaker:assign"

func (b *backend) TryAssign(ctx context.Context, token string) (bool, error) {
	conn, err := b.pool.GetContext(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	reply, err := redis.String(conn.Do("SET", assignLock, token, "NX", "PX", 5000))
	if err == redis.ErrNil {
		return false, nil
	}
	return reply == "OK", err
}

func (b *backend) Waiting(ctx context.Context) (int, error) {
	conn, err := b.pool.GetContext(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	return redis.Int(conn.Do("ZCARD", assignLock))
}

func (b *backend) ReleaseAssign(ctx context.Context) error {
	conn, err := b.pool.GetContext(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Do("DEL", assignLock) // want "DEL of lock key"
	return err
}
