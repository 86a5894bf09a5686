// Package valkey releases valkey-go locks: the fix calls the core's
// Release with the client made a lock.Client by fixvalkey.Client.
package valkey

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

func unlock(ctx context.Context, client valkey.Client, job, token string) error {
	key := "lock:job:" + job
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(30000).Build()).Error(); err != nil {
		return err
	}
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error() // want "DEL of lock key `key` without an owner check; release with `lock\\.Release` via `fixvalkey\\.Client` \\(DELEX IFEQ or compare-and-delete\\)"
}
