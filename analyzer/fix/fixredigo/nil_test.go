package fixredigo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/locklint/locklint/analyzer/fix/fixredigo"
	"github.com/locklint/locklint/analyzer/fix/lock"
)

// A nil pool or connection is bad input: a typed error before anything is
// sent, never a panic.
func TestNilClient(t *testing.T) {
	ctx := context.Background()
	var conn redis.Conn
	for _, c := range []lock.Client{fixredigo.Pool(nil), fixredigo.Conn(conn)} {
		if _, err := lock.Obtain(ctx, c, "lock:x", time.Second); !errors.Is(err, lock.ErrNilClient) {
			t.Errorf("Obtain: %v, want ErrNilClient", err)
		}
	}
}
