// Package poll runs a condition at an interval until it holds, fails or
// the context ends, as the poll helpers of common libraries do.
package poll

import (
	"context"
	"time"
)

func UntilCancel(ctx context.Context, every time.Duration, now bool, cond func(context.Context) (bool, error)) error {
	if now {
		if ok, err := cond(ctx); ok || err != nil {
			return err
		}
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			if ok, err := cond(ctx); ok || err != nil {
				return err
			}
		}
	}
}
