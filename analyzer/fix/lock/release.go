package lock

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"
)

var (
	//go:embed scripts/acquire.lua
	acquireLua string
	//go:embed scripts/fenced.lua
	fencedLua string
	//go:embed scripts/release.lua
	releaseLua string
	//go:embed scripts/refresh.lua
	refreshLua string

	acquireScript = newScript(acquireLua)
	fencedScript  = newScript(fencedLua)
	releaseScript = newScript(releaseLua)
	refreshScript = newScript(refreshLua)
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
// it and a compare-and-delete script elsewhere. It ignores ctx's
// cancellation, so that a release deferred under a request's context runs
// even when the request is gone: the command is detached from ctx's
// cancellation (its values stay) and bounded by DefaultReleaseTimeout.
func Release(ctx context.Context, client Client, key string, token string) error {
	if err := checkHandle(client, key, token); err != nil {
		return fmt.Errorf("release %q: %w", key, err)
	}
	if _, err := releaseBounded(ctx, client, key, token, nil, DefaultReleaseTimeout); err != nil {
		return fmt.Errorf("release %q: %w", key, err)
	}
	return nil
}

// releaseBounded is compareAndDelete detached from ctx's cancellation and
// bounded by timeout, whatever the client's own timeouts.
func releaseBounded(ctx context.Context, client Client, key, token string, lw *lockWords, timeout time.Duration) (ReleasePath, error) {
	rctx := detached(ctx, timeout)
	defer rctx.stop()
	if honoursContext(rctx, client) {
		return compareAndDelete(rctx, client, key, token, lw)
	}
	op := func() (ReleasePath, error) { return compareAndDelete(rctx, client, key, token, lw) }
	path, err, inFlight := bounded(rctx, false, op, nil)
	if inFlight {
		return path, fmt.Errorf("%w after %s: the delete may still run, its outcome unknown", err, timeout)
	}
	return path, err
}

// refreshBounded is compareAndExpire bounded by ctx's deadline, whatever
// the client's own timeouts.
func refreshBounded(ctx context.Context, client Client, key, token string, lw *lockWords, ttl time.Duration, rep replicas) error {
	op := func() (struct{}, error) { return struct{}{}, compareAndExpire(ctx, client, key, token, lw, ttl, rep) }
	_, err, inFlight := bounded(ctx, honoursContext(ctx, client), op, nil)
	if inFlight {
		return fmt.Errorf("%w: the extension may still be applied, its outcome unknown", err)
	}
	return err
}

// Refresh sets key's lease to ttl if and only if key still holds token, and
// returns ErrNotHeld otherwise; it never recreates an expired key. It sends
// SET key token IFEQ token PX ttl where the server has it and a
// compare-and-PEXPIRE script elsewhere: one round trip either way.
func Refresh(ctx context.Context, client Client, key string, token string, ttl time.Duration) error {
	if err := checkHandle(client, key, token); err != nil {
		return fmt.Errorf("refresh %q: %w", key, err)
	}
	if err := checkTTL(ttl); err != nil {
		return fmt.Errorf("refresh %q: %w", key, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("refresh %q: %w", key, err)
	}
	if err := refreshBounded(ctx, client, key, token, nil, ttl, replicas{}); err != nil {
		return fmt.Errorf("refresh %q: %w", key, err)
	}
	return nil
}

// detached is ctx's values, not its cancellation, bounded by timeout.
func detached(ctx context.Context, timeout time.Duration) *boundCtx {
	return withBound(uncancelled(ctx), timeout)
}

// uncancelled is context.WithoutCancel, skipped for a context that cannot
// be cancelled anyway.
func uncancelled(ctx context.Context) context.Context {
	if ctx.Done() == nil {
		if _, ok := ctx.Deadline(); !ok {
			return ctx
		}
	}
	return context.WithoutCancel(ctx)
}

func checkHandle(client Client, key, token string) error {
	if isNilClient(client) {
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

// errGoneOnDelete is what a delete that found no token can tell: go-redis
// re-sends a command whose reply it lost, so the copy that finds the key
// gone may follow one that deleted it.
var errGoneOnDelete = fmt.Errorf("%w: the key did not hold the token when the delete ran "+
	"(the lease expired, another owner took the key or it was deleted, "+
	"or an earlier copy of this delete, re-sent by the client after a lost reply, removed it)", ErrNotHeld)

// compareAndDelete deletes key if it holds token and says which command did
// it. Both paths send exactly one command once the server's support is known.
// lw, if not nil, is key and token boxed.
func compareAndDelete(ctx context.Context, client Client, key, token string, lw *lockWords) (ReleasePath, error) {
	feats := featuresFor(ctx, client, key)
	if feats.has(featDELEX) {
		r, err := client.Do(ctx, commandOf(lw, 1, 1, "DELEX", key, "IFEQ", token))
		switch {
		case err == nil:
			feats.learn(featDELEX, true)
			if n, err := integer(r); err != nil {
				return ReleaseDELEX, err
			} else if n != 1 {
				return ReleaseDELEX, errGoneOnDelete
			}
			return ReleaseDELEX, nil
		case !isUnsupported(err):
			return ReleaseDELEX, err
		}
		// DELEX was rejected before it ran, so the script below cannot
		// race with a delete that happened.
		feats.learn(featDELEX, false)
	}
	n, err := releaseScript.int(ctx, client, lw, []string{key}, token)
	if err != nil {
		return ReleaseLua, err
	}
	if n != 1 {
		return ReleaseLua, errGoneOnDelete
	}
	return ReleaseLua, nil
}

// compareAndExpire sets key's lease to ttl if it holds token, followed by
// rep's WAIT; too few acknowledgments are ErrTooFewReplicas, the lease
// extended all the same.
func compareAndExpire(ctx context.Context, client Client, key, token string, lw *lockWords, ttl time.Duration, rep replicas) error {
	feats := featuresFor(ctx, client, key)
	if feats.tries(featSetIFEQ, rep) {
		r, a, err := rep.acked(ctx, client, commandOf(lw, 1, 1, "SET", key, token, "IFEQ", token, "PX", msWord(ttl)))
		switch {
		case err == nil && r != nil:
			feats.learn(featSetIFEQ, true)
			return rep.short(a)
		case err == nil:
			feats.learn(featSetIFEQ, true)
			return ErrNotHeld
		case !isUnsupported(err):
			return err
		}
		feats.learn(featSetIFEQ, false)
	}
	r, a, err := refreshScript.runAcked(ctx, client, rep, lw, []string{key}, token, msWord(ttl))
	if err != nil {
		return err
	}
	n, err := integer(r)
	if err != nil {
		return err
	}
	if n != 1 {
		return ErrNotHeld
	}
	return rep.short(a)
}

// isUnsupported reports a rejection that means the server (or the ACL user)
// cannot run the new command form at all, as opposed to a failure of the
// command: unknown command before Redis 8.4, a syntax error for SET ... IFEQ
// on older servers, or an ACL that does not grant the command. rueidis and
// valkey-go drop the generic ERR prefix from an error's text.
func isUnsupported(err error) bool {
	msg, ok := serverError(err)
	msg = strings.TrimPrefix(msg, "ERR ")
	return ok && (strings.HasPrefix(msg, "unknown command") ||
		strings.HasPrefix(msg, "syntax error") ||
		strings.HasPrefix(msg, "NOPERM") && strings.Contains(msg, "command"))
}
