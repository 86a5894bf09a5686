// Code generated from ../fixrueidis by go generate; DO NOT EDIT.
// sha256 of the rest: e2093e1c738e91a2c7dbcc94fd199706800df05df83e3d1a5e3d328a5ef5a352

package fixvalkey_test

import (
	"context"
	"fmt"
	"time"

	"github.com/locklint/locklint/analyzer/fix/fixvalkey"
	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/valkey-io/valkey-go"
)

// The example compiles as part of the tests but does not run: the
// library's behaviour tests (internal/behaviour) run the same calls
// against real servers.
func ExampleClient() {
	vc, err := valkey.NewClient(valkey.ClientOption{InitAddress: []string{"localhost:6379"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer vc.Close()
	ctx := context.Background()
	c := fixvalkey.Client(vc)

	l, err := lock.Obtain(ctx, c, "lock:{sku42}", 30*time.Second, lock.WithFencing())
	if err != nil {
		fmt.Println(err) // errors.Is(err, lock.ErrNotObtained): someone else has it
		return
	}
	defer l.Release(ctx)
	if err := l.Refresh(ctx, 30*time.Second); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("fence", l.Fence())
}
