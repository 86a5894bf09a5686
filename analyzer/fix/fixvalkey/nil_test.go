// Code generated from ../fixrueidis by go generate; DO NOT EDIT.
// sha256 of the rest: cb7a188ebfd66d9549c19c6aa5d1781c40263dec4a2b6222340c105cbafed732

package fixvalkey_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix/fixvalkey"
	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/valkey-io/valkey-go"
)

// A nil client is bad input: a typed error before anything is sent, never
// a panic.
func TestNilClient(t *testing.T) {
	var c valkey.Client
	if _, err := lock.Obtain(context.Background(), fixvalkey.Client(c), "lock:x", time.Second); !errors.Is(err, lock.ErrNilClient) {
		t.Errorf("Obtain with a nil client: %v, want ErrNilClient", err)
	}
	if err := lock.Release(context.Background(), fixvalkey.Client(c), "lock:x", "t"); !errors.Is(err, lock.ErrNilClient) {
		t.Errorf("Release with a nil client: %v, want ErrNilClient", err)
	}
}
