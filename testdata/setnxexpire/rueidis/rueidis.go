package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func acquire(ctx context.Context, client rueidis.Client, key, token string) error {
	if err := client.Do(ctx, client.B().Setnx().Key(key).Value(token).Build()).Error(); err != nil { // want `SETNX and the EXPIRE on line 14 are separate commands`
		return err
	}
	return client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build()).Error()
}

// SET NX without Ex/Px, then PEXPIRE, pipelined with DoMulti.
func pipelined(ctx context.Context, client rueidis.Client, token string) {
	client.DoMulti(ctx,
		client.B().Set().Key("lock:feed").Value(token).Nx().Build(), // want `the PEXPIRE queued on line 21 runs even when this SETNX fails`
		client.B().Pexpire().Key("lock:feed").Milliseconds(30000).Build(),
	)
}

// Near miss: SET NX PX in one builder.
func atomic(ctx context.Context, client rueidis.Client, token string) error {
	return client.Do(ctx, client.B().Set().Key("lock:feed").Value(token).Nx().Px(30*time.Second).Build()).Error()
}

// Lock key with no expiry at all.
func forever(ctx context.Context, client rueidis.Client, token string) error {
	return client.Do(ctx, client.B().Setnx().Key("lock:feed").Value(token).Build()).Error() // want "lock key `\"lock:feed\"` acquired with no expiry; set the TTL in the acquire \\(SET NX PX\\) or use `lock\\.Obtain` via `fixrueidis\\.Client`$"
}
