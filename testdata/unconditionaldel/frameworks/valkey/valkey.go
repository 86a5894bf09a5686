// Package valkey pins valkey-go, the rueidis API under the Valkey
// project: the same builder chains, the same findings.
package valkey

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

func unlock(ctx context.Context, client valkey.Client, job string) error {
	return client.Do(ctx, client.B().Del().Key("lock:job:"+job).Build()).Error() // want "DEL of lock key `\"lock:job:\" \\+ job` without an owner check"
}

// Near miss: cache eviction.
func evict(ctx context.Context, client valkey.Client, id string) error {
	return client.Do(ctx, client.B().Unlink().Key("cache:"+id).Build()).Error()
}
