// Package cacheport declares the cache a service's packages share, in
// go-redis's words: its Redis implementation lives in a package of its
// own, wired in by main; this one keeps the in-memory one for tests.
package cacheport

import (
	"context"
	"sync"
	"time"
)

type Cache interface {
	SetNX(ctx context.Context, key string, value string, ttl time.Duration) (bool, error)
	Get(ctx context.Context, key string) (string, error)
	Del(ctx context.Context, keys ...string) error
}

type Memory struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *Memory) SetNX(_ context.Context, key, value string, _ time.Duration) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return false, nil
	}
	c.m[key] = value
	return true, nil
}

func (c *Memory) Get(_ context.Context, key string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[key], nil
}

func (c *Memory) Del(_ context.Context, keys ...string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range keys {
		delete(c.m, k)
	}
	return nil
}
