package fix

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"time"

	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/redis/go-redis/v9"
)

// The library's types, options and errors are package lock's; these
// names let go-redis code use them without a second import.
type (
	Lock                  = lock.Lock
	Option                = lock.Option
	Backoff               = lock.Backoff
	Observer              = lock.Observer
	ReleasePath           = lock.ReleasePath
	FencedResource[T any] = lock.FencedResource[T]
)

const (
	DefaultMaxHold        = lock.DefaultMaxHold
	DefaultReleaseTimeout = lock.DefaultReleaseTimeout
	ReleaseDELEX          = lock.ReleaseDELEX
	ReleaseLua            = lock.ReleaseLua
)

var (
	ErrNotObtained    = lock.ErrNotObtained
	ErrNotHeld        = lock.ErrNotHeld
	ErrLost           = lock.ErrLost
	ErrReleased       = lock.ErrReleased
	ErrNilClient      = lock.ErrNilClient
	ErrInvalidKey     = lock.ErrInvalidKey
	ErrInvalidTTL     = lock.ErrInvalidTTL
	ErrInvalidToken   = lock.ErrInvalidToken
	ErrCrossSlot      = lock.ErrCrossSlot
	ErrInvalidOption  = lock.ErrInvalidOption
	ErrStaleFence     = lock.ErrStaleFence
	ErrTooFewReplicas = lock.ErrTooFewReplicas

	// ErrRing reports a *redis.Ring passed to Obtain. A Ring remaps keys
	// when a shard goes down and comes back, so two callers can each hold
	// "the" lock, on different shards.
	ErrRing = errors.New("fix: a redis.Ring cannot hold a lock: use a Client, a failover client or a ClusterClient")
)

// Obtain is lock.Obtain for a go-redis client; a *redis.Ring is refused
// with ErrRing.
func Obtain(ctx context.Context, client redis.UniversalClient, key string, ttl time.Duration, opts ...Option) (*Lock, error) {
	c, err := holder(client)
	if err != nil {
		return nil, fmt.Errorf("obtain %q: %w", key, err)
	}
	return lock.Obtain(ctx, c, key, ttl, opts...)
}

// Do is lock.Do for a go-redis client; a *redis.Ring is refused with
// ErrRing.
func Do(ctx context.Context, client redis.UniversalClient, key string, ttl time.Duration, fn func(ctx context.Context) error, opts ...Option) error {
	c, err := holder(client)
	if err != nil {
		return fmt.Errorf("do %q: %w", key, err)
	}
	return lock.Do(ctx, c, key, ttl, fn, opts...)
}

// Release is lock.Release for a go-redis client: it ignores ctx's
// cancellation (a release deferred under a request's context still runs)
// and is bounded by DefaultReleaseTimeout. It accepts a Ring, since it
// only ever acts for the token's owner (see the package doc).
func Release(ctx context.Context, client redis.UniversalClient, key string, token string) error {
	return lock.Release(ctx, handle(client), key, token)
}

// Refresh is lock.Refresh for a go-redis client. It accepts a Ring, as
// Release does.
func Refresh(ctx context.Context, client redis.UniversalClient, key string, token string, ttl time.Duration) error {
	return lock.Refresh(ctx, handle(client), key, token, ttl)
}

func holder(client redis.UniversalClient) (lock.Client, error) {
	if _, ok := client.(*redis.Ring); ok {
		return nil, ErrRing
	}
	if isNil(client) {
		return nil, ErrNilClient
	}
	return wrap(client), nil
}

func handle(client redis.UniversalClient) lock.Client {
	if isNil(client) {
		return nil
	}
	return wrap(client)
}

// wrap makes the lock.Client of a client that is not nil.
func wrap(client redis.UniversalClient) lock.Client {
	if c, ok := client.(*redis.Client); ok {
		return goRedisClient{c}
	}
	return goRedis{client}
}

func isNil(client redis.UniversalClient) bool {
	if client == nil {
		return true
	}
	v := reflect.ValueOf(client)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// DefaultBackoff is lock.DefaultBackoff.
func DefaultBackoff() Backoff { return lock.DefaultBackoff() }

// InFlight is lock.InFlight.
func InFlight() int { return lock.InFlight() }

// SlogObserver is lock.SlogObserver.
func SlogObserver(logger *slog.Logger) *Observer { return lock.SlogObserver(logger) }

// WithFencing is lock.WithFencing.
func WithFencing() Option { return lock.WithFencing() }

// WithFenceKey is lock.WithFenceKey.
func WithFenceKey(key string) Option { return lock.WithFenceKey(key) }

// WithMaxWait is lock.WithMaxWait.
func WithMaxWait(d time.Duration) Option { return lock.WithMaxWait(d) }

// WithWait is lock.WithWait.
func WithWait() Option { return lock.WithWait() }

// WithBackoff is lock.WithBackoff.
func WithBackoff(b Backoff) Option { return lock.WithBackoff(b) }

// WithoutFairness is lock.WithoutFairness.
func WithoutFairness() Option { return lock.WithoutFairness() }

// WithWatchdog is lock.WithWatchdog.
func WithWatchdog(maxHold time.Duration) Option { return lock.WithWatchdog(maxHold) }

// WithKeepAlive is lock.WithKeepAlive.
func WithKeepAlive() Option { return lock.WithKeepAlive() }

// WithReleaseTimeout is lock.WithReleaseTimeout.
func WithReleaseTimeout(d time.Duration) Option { return lock.WithReleaseTimeout(d) }

// WithObserver is lock.WithObserver.
func WithObserver(obs *Observer) Option { return lock.WithObserver(obs) }

// WithReplicas is lock.WithReplicas.
func WithReplicas(n int, timeout time.Duration) Option { return lock.WithReplicas(n, timeout) }

// WithFsyncedReplicas is lock.WithFsyncedReplicas.
func WithFsyncedReplicas(n int, timeout time.Duration) Option {
	return lock.WithFsyncedReplicas(n, timeout)
}
