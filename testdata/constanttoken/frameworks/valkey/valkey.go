// Package valkey pins a constant token through valkey-go's builder.
package valkey

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

func acquire(ctx context.Context, client valkey.Client, job string) error {
	return client.Do(ctx, client.B().Set().Key("lock:job:"+job).Value("1").Nx().Px(time.Minute).Build()).Error() // want "lock key `\"lock:job:\" \\+ job` acquired with a non-unique token \\(the constant `\"1\"`\\); use `lock\\.Obtain` via `fixvalkey\\.Client` or a crypto/rand token$"
}

// Near miss: a token made per acquisition.
func acquireOwned(ctx context.Context, client valkey.Client, job, token string) error {
	return client.Do(ctx, client.B().Set().Key("lock:job:"+job).Value(token).Nx().Px(time.Minute).Build()).Error()
}
