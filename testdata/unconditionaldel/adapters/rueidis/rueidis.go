// Package rueidis releases rueidis locks: the fix replaces the client's
// Do of the built DEL with the core's Release, the client made a
// lock.Client by fixrueidis.Client.
package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

func unlock(ctx context.Context, client rueidis.Client, job, token string) error {
	key := "lock:job:" + job
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(30000).Build()).Error(); err != nil {
		return err
	}
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error() // want "DEL of lock key `key` without an owner check; release with `lock\\.Release` via `fixrueidis\\.Client` \\(DELEX IFEQ or compare-and-delete\\)"
}

func deferred(ctx context.Context, client rueidis.Client, token string) {
	if client.Do(ctx, client.B().Set().Key("lock:feed").Value(token).Nx().PxMilliseconds(30000).Build()).Error() != nil {
		return
	}
	defer client.Do(ctx, client.B().Del().Key("lock:feed").Build()) // want "DEL of lock key `\"lock:feed\"` without an owner check; release with `lock\\.Release` via `fixrueidis\\.Client`"
}

// Near miss: a dedicated connection is not the rueidis.Client the
// adapter takes; the finding has no fix.
func dedicated(ctx context.Context, client rueidis.Client, token string) error {
	return client.Dedicated(func(dc rueidis.DedicatedClient) error {
		if err := dc.Do(ctx, dc.B().Set().Key("lock:cas").Value(token).Nx().PxMilliseconds(30000).Build()).Error(); err != nil {
			return err
		}
		return dc.Do(ctx, dc.B().Del().Key("lock:cas").Build()).Error() // want "DEL of lock key `\"lock:cas\"` without an owner check; release with `lock\\.Release` via `fixrueidis\\.Client`"
	})
}
