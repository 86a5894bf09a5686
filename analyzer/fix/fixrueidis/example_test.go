package fixrueidis_test

import (
	"context"
	"fmt"
	"time"

	"github.com/locklint/locklint/analyzer/fix/fixrueidis"
	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/redis/rueidis"
)

// The example compiles as part of the tests but does not run: the
// library's behaviour tests (internal/behaviour) run the same calls
// against real servers.
func ExampleClient() {
	rc, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"localhost:6379"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rc.Close()
	ctx := context.Background()
	c := fixrueidis.Client(rc)

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
