package rueidis

import (
	"context"
	"errors"
	"time"

	"github.com/redis/rueidis"
)

var errBusy = errors.New("busy")

// SET NX, then INCR in a second round trip.
func afterSet(ctx context.Context, client rueidis.Client, sku, token string) (int64, error) {
	if err := client.Do(ctx, client.B().Set().Key("lock:{"+sku+"}").Value(token).Nx().Px(30*time.Second).Build()).Error(); err != nil {
		return 0, errBusy
	}
	return client.Do(ctx, client.B().Incr().Key("lock:{"+sku+"}:fence").Build()).AsInt64() // want "INCR of fence `\"lock:\\{\" \\+ sku \\+ \"\\}:fence\"` after the SET NX on line 15 is a separate round trip; use `lock\\.WithFencing` via `fixrueidis\\.Client`$"
}

// The fence drawn first.
func before(ctx context.Context, client rueidis.Client, token string) (int64, error) {
	fence, err := client.Do(ctx, client.B().Incr().Key("fencing:payouts").Build()).AsInt64() // want "INCR of fence `\"fencing:payouts\"` before the SETNX on line 27 is a separate round trip"
	if err != nil {
		return 0, err
	}
	ok, err := client.Do(ctx, client.B().Setnx().Key("lock:payouts").Value(token).Build()).AsBool()
	if err != nil || !ok {
		return 0, errBusy
	}
	return fence, nil
}

// Near misses.

// One MULTI/EXEC in one DoMulti.
func multi(ctx context.Context, client rueidis.Client, sku, token string) []rueidis.RedisResult {
	return client.DoMulti(ctx,
		client.B().Multi().Build(),
		client.B().Set().Key("lock:{"+sku+"}").Value(token).Nx().Px(30*time.Second).Build(),
		client.B().Incr().Key("lock:{"+sku+"}:fence").Build(),
		client.B().Exec().Build(),
	)
}

// A rate-limit counter next to the acquire.
func limited(ctx context.Context, client rueidis.Client, user, token string) error {
	if err := client.Do(ctx, client.B().Set().Key("lock:user:"+user).Value(token).Nx().Px(time.Second).Build()).Error(); err != nil {
		return err
	}
	return client.Do(ctx, client.B().Incr().Key("ratelimit:"+user).Build()).Error()
}
