package fix

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	//go:embed scripts/acquire.lua
	acquireLua string
	//go:embed scripts/release.lua
	releaseLua string
	//go:embed scripts/refresh.lua
	refreshLua string

	acquireScript = redis.NewScript(acquireLua)
	releaseScript = redis.NewScript(releaseLua)
	refreshScript = redis.NewScript(refreshLua)
)

// DefaultReleaseTimeout bounds a release, which runs detached from the
// caller's context so that a cancelled request still frees its lock.
const DefaultReleaseTimeout = 2 * time.Second

// ReleasePath names the command that performed an owner-checked delete.
type ReleasePath string

const (
	ReleaseDELEX ReleasePath = "DELEX"
	ReleaseLua   ReleasePath = "lua"
)

// Release deletes key if and only if it still holds token, and returns
// ErrNotHeld otherwise. It sends DELEX key IFEQ token where the server has
// it and a compare-and-delete script elsewhere. It runs even when ctx is
// already cancelled: the command is detached from ctx's cancellation and
// bounded by DefaultReleaseTimeout.
func Release(ctx context.Context, client redis.UniversalClient, key string, token string) error {
	if err := checkHandle(client, key, token); err != nil {
		return fmt.Errorf("release %q: %w", key, err)
	}
	rctx, cancel := detached(ctx, DefaultReleaseTimeout)
	defer cancel()
	_, err := compareAndDelete(rctx, client, key, token)
	if err != nil {
		return fmt.Errorf("release %q: %w", key, err)
	}
	return nil
}

// Refresh sets key's lease to ttl if and only if key still holds token, and
// returns ErrNotHeld otherwise; it never recreates an expired key. It sends
// SET key token IFEQ token PX ttl where the server has it and a
// compare-and-PEXPIRE script elsewhere: one round trip either way.
func Refresh(ctx context.Context, client redis.UniversalClient, key string, token string, ttl time.Duration) error {
	if err := checkHandle(client, key, token); err != nil {
		return fmt.Errorf("refresh %q: %w", key, err)
	}
	if err := checkTTL(ttl); err != nil {
		return fmt.Errorf("refresh %q: %w", key, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("refresh %q: %w", key, err)
	}
	if err := compareAndExpire(ctx, client, key, token, ttl); err != nil {
		return fmt.Errorf("refresh %q: %w", key, err)
	}
	return nil
}

func detached(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), timeout)
}

func checkHandle(client redis.UniversalClient, key, token string) error {
	if isNil(client) {
		return ErrNilClient
	}
	if key == "" {
		return ErrInvalidKey
	}
	if token == "" {
		return ErrInvalidToken
	}
	return nil
}

func checkTTL(ttl time.Duration) error {
	if ttl < time.Millisecond {
		return fmt.Errorf("%w: got %s, Redis leases have millisecond resolution", ErrInvalidTTL, ttl)
	}
	return nil
}

func isNil(client redis.UniversalClient) bool {
	if client == nil {
		return true
	}
	v := reflect.ValueOf(client)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// compareAndDelete deletes key if it holds token and says which command did
// it. Both paths send exactly one command once the server's support is known.
func compareAndDelete(ctx context.Context, client redis.UniversalClient, key, token string) (ReleasePath, error) {
	fk, cacheable := featureKeyFor(ctx, client, key)
	if !cacheable || supported(&delexSupport, fk) {
		n, err := client.DelExArgs(ctx, key, redis.DelExArgs{Mode: "IFEQ", MatchValue: token}).Result()
		switch {
		case err == nil:
			remember(&delexSupport, fk, cacheable, true)
			if n != 1 {
				return ReleaseDELEX, ErrNotHeld
			}
			return ReleaseDELEX, nil
		case !isUnsupported(err):
			return ReleaseDELEX, err
		}
		// DELEX was rejected before it ran, so the script below cannot
		// race with a delete that happened.
		remember(&delexSupport, fk, cacheable, false)
	}
	n, err := releaseScript.Run(ctx, client, []string{key}, token).Int64()
	if err != nil {
		return ReleaseLua, err
	}
	if n != 1 {
		return ReleaseLua, ErrNotHeld
	}
	return ReleaseLua, nil
}

func compareAndExpire(ctx context.Context, client redis.UniversalClient, key, token string, ttl time.Duration) error {
	fk, cacheable := featureKeyFor(ctx, client, key)
	if !cacheable || supported(&setIfeqSupport, fk) {
		err := client.SetIFEQ(ctx, key, token, token, ttl).Err()
		switch {
		case err == nil:
			remember(&setIfeqSupport, fk, cacheable, true)
			return nil
		case errors.Is(err, redis.Nil):
			remember(&setIfeqSupport, fk, cacheable, true)
			return ErrNotHeld
		case !isUnsupported(err):
			return err
		}
		remember(&setIfeqSupport, fk, cacheable, false)
	}
	n, err := refreshScript.Run(ctx, client, []string{key}, token, ttl.Milliseconds()).Int64()
	if err != nil {
		return err
	}
	if n != 1 {
		return ErrNotHeld
	}
	return nil
}

// Support for DELEX and SET ... IFEQ is learnt from the first reply and kept
// per client, and per node for Cluster and Ring clients, because a rolling
// upgrade can leave nodes of one deployment on different versions. A server
// that later gains the command keeps being served by the script, which is
// equally correct.
var delexSupport, setIfeqSupport sync.Map // featureKey -> bool

type featureKey struct {
	client any
	node   string
}

func featureKeyFor(ctx context.Context, client redis.UniversalClient, key string) (featureKey, bool) {
	if !reflect.TypeOf(client).Comparable() {
		return featureKey{}, false
	}
	switch c := client.(type) {
	case *redis.ClusterClient:
		// Uses the client's cached slot map; it only talks to the cluster
		// when the map has not been loaded yet, as the command itself would.
		if node, err := c.MasterForKey(ctx, key); err == nil {
			return featureKey{client, node.Options().Addr}, true
		}
	case *redis.Ring:
		if shard, err := c.GetShardClientForKey(key); err == nil {
			return featureKey{client, shard.Options().Addr}, true
		}
	}
	return featureKey{client: client}, true
}

func supported(m *sync.Map, fk featureKey) bool {
	v, ok := m.Load(fk)
	return !ok || v.(bool)
}

func remember(m *sync.Map, fk featureKey, cacheable, ok bool) {
	if cacheable {
		m.Store(fk, ok)
	}
}

// isUnsupported reports a rejection that means the server (or the ACL user)
// cannot run the new command form at all, as opposed to a failure of the
// command: unknown command before Redis 8.4, a syntax error for SET ... IFEQ
// on older servers, or an ACL that does not grant the command.
func isUnsupported(err error) bool {
	var rerr redis.Error
	if !errors.As(err, &rerr) {
		return false
	}
	msg := rerr.Error()
	return strings.HasPrefix(msg, "ERR unknown command") ||
		strings.HasPrefix(msg, "ERR syntax error") ||
		strings.HasPrefix(msg, "NOPERM") && strings.Contains(msg, "command")
}
