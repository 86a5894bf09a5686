package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

func work() {}

func release(ctx context.Context, client rueidis.Client, key string) {
	client.Do(ctx, client.B().Del().Key(key).Build())
}

// Near miss: rueidis gives a nil-response error from Error when SET NX
// finds the key held, so an error check is the miss check.
func errorChecked(ctx context.Context, client rueidis.Client, token string) error {
	if err := client.Do(ctx, client.B().Set().Key("lock:feed").Value(token).Nx().PxMilliseconds(30000).Build()).Error(); err != nil {
		return err
	}
	work()
	release(ctx, client, "lock:feed")
	return nil
}

// The SET NX is sent and its result dropped.
func discarded(ctx context.Context, client rueidis.Client, token string) {
	client.Do(ctx, client.B().Set().Key("lock:feed").Value(token).Nx().PxMilliseconds(30000).Build()) // want "result of SET NX discarded"
	work()
	release(ctx, client, "lock:feed")
}

// SETNX replies 0 when held: its error alone says nothing.
func setnxErrOnly(ctx context.Context, client rueidis.Client, token string) error {
	if err := client.Do(ctx, client.B().Setnx().Key("lock:feed").Value(token).Build()).Error(); err != nil { // want "only the error of SETNX is checked, but a held lock gives false \\(0\\) and no error; check the reply, or use `lock\\.Obtain` via `fixrueidis\\.Client`$"
		return err
	}
	work()
	release(ctx, client, "lock:feed")
	return nil
}

// Near miss: SETNX's reply tested.
func setnxChecked(ctx context.Context, client rueidis.Client, token string) error {
	ok, err := client.Do(ctx, client.B().Setnx().Key("lock:feed").Value(token).Build()).AsBool()
	if err != nil || !ok {
		return err
	}
	work()
	release(ctx, client, "lock:feed")
	return nil
}
