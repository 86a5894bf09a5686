// Package app imports no client: it locks through the port another
// package of the module declares, whose Redis implementation it never
// sees.
package app

import (
	"context"
	"time"

	"locklint.test/constanttoken/regressions/importedport/cacheport"
)

type Exports struct{ cache cacheport.Cache }

func (e Exports) Run(ctx context.Context, id string, run func()) error {
	key := "export:lock:" + id
	ok, err := e.cache.SetNX(ctx, key, "1", time.Minute) // want "acquired with a non-unique token"
	if err != nil || !ok {
		return err
	}
	defer func() {
		// The owner check passes for every holder of "1".
		if v, _ := e.cache.Get(ctx, key); v == "1" {
			e.cache.Del(ctx, key)
		}
	}()
	run()
	return nil
}

// Near miss: a marker that only expires is a cool-down, not a lock.
func (e Exports) Throttle(ctx context.Context, id string) (bool, error) {
	return e.cache.SetNX(ctx, "export:recent:"+id, "1", time.Minute)
}
