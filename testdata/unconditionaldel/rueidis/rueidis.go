package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

func unlock(ctx context.Context, client rueidis.Client, job string) error {
	return client.Do(ctx, client.B().Del().Key("lock:job:"+job).Build()).Error() // want "DEL of lock key `\"lock:job:\" \\+ job` without an owner check"
}

// Near miss: DELEX IFEQ through the builder.
func unlockIfOwner(ctx context.Context, client rueidis.Client, job, token string) error {
	return client.Do(ctx, client.B().Delex().Key("lock:job:"+job).Ifeq(token).Build()).Error()
}

// Near miss: cache eviction.
func evict(ctx context.Context, client rueidis.Client, id string) error {
	return client.Do(ctx, client.B().Unlink().Key("cache:"+id).Build()).Error()
}
