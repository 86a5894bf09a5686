// Package runmarker pins issue 32's shape 1 for the plain SET: an
// in-progress marker lock:<ns>:<run start> that only the run that made
// the name writes, lists for a status page and deletes when it ends. No
// one else can hold that key, so its plain SET overwrites nobody. The
// twin marks one key per namespace, which every run writes, with a plain
// SET after checking it is free: two runs that check at once both start.
package runmarker

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/go-redis/redis/v8"
)

// Near miss (silent): a marker under a name unique to this run.
func Migrate(ctx context.Context, rdb *redis.Client, ns string, steps []func() error) error {
	marker := fmt.Sprintf("lock:%s:%d", ns, time.Now().UnixNano())
	host, _ := os.Hostname()
	if err := rdb.Set(ctx, marker, host, 6*time.Hour).Err(); err != nil {
		return err
	}
	defer rdb.Del(ctx, marker)
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// Must report: a shared key, checked then written without NX.
func MigrateOnce(ctx context.Context, rdb *redis.Client, ns string, steps []func() error) error {
	key := fmt.Sprintf("lock:%s", ns)
	if rdb.Exists(ctx, key).Val() > 0 {
		return fmt.Errorf("migration of %s already running", ns)
	}
	host, _ := os.Hostname()
	rdb.Set(ctx, key, host, time.Hour) // want "SET of lock key `key` without NX overwrites whoever holds it"
	defer rdb.Del(ctx, key)
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}
