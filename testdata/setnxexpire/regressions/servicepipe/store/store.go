// Package store is a service's Redis client: its own interfaces over
// go-redis v7, so that the rest of the service never imports the client.
package store

import (
	"context"
	"time"

	"github.com/go-redis/redis/v7"
)

// Pipeliner is the service's pipeline: go-redis's commands, queued until
// Exec sends them.
type Pipeliner interface {
	redis.StatefulCmdable
	Discard() error
	Exec() ([]redis.Cmder, error)
}

// Client is what the service's packages are given.
type Client interface {
	SetNX(ctx context.Context, key string, value interface{}, ttl time.Duration) *redis.BoolCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
	TxPipeline(ctx context.Context) Pipeliner
}

type client struct{ cli *redis.Client }

// New wraps cli.
func New(cli *redis.Client) Client { return &client{cli} }

func (c *client) SetNX(ctx context.Context, key string, value interface{}, ttl time.Duration) *redis.BoolCmd {
	return c.cli.SetNX(key, value, ttl)
}

func (c *client) Del(ctx context.Context, keys ...string) *redis.IntCmd {
	return c.cli.Del(keys...)
}

func (c *client) TxPipeline(ctx context.Context) Pipeliner { return c.cli.TxPipeline() }
