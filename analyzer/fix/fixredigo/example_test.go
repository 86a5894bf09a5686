package fixredigo_test

import (
	"context"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/locklint/locklint/analyzer/fix/fixredigo"
	"github.com/locklint/locklint/analyzer/fix/lock"
)

// The example compiles as part of the tests but does not run: the
// library's behaviour tests (internal/behaviour) run the same calls
// against real servers.
func ExamplePool() {
	pool := &redis.Pool{
		DialContext: func(ctx context.Context) (redis.Conn, error) {
			return redis.DialContext(ctx, "tcp", "localhost:6379")
		},
		MaxIdle: 8,
	}
	defer pool.Close()
	c := fixredigo.Pool(pool)
	ctx := context.Background()

	l, err := lock.Obtain(ctx, c, "lock:{report}", 30*time.Second, lock.WithFencing(), lock.WithMaxWait(5*time.Second))
	if err != nil {
		fmt.Println(err) // errors.Is(err, lock.ErrNotObtained): someone else has it
		return
	}
	defer l.Release(ctx)
	if err := l.Refresh(ctx, 30*time.Second); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("writing with fence", l.Fence())
}
