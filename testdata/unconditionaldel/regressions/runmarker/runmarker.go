// Package runmarker pins issue 32's shape 1, an in-progress marker unique
// to one run: lock:<ns>:<run start> is written with a plain SET by the run
// that made the name, listed by a status page, and deleted by the same run
// when it ends. No other process can ever write that key, so there is no
// holder to check: the DEL is the run's own cleanup. The twin takes one
// key per namespace with SET NX, which every run contends for, and its
// plain DEL removes another run's lock once this one's lease ran out.
package runmarker

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/google/uuid"
)

type Migrator struct {
	rdb *redis.Client
	ns  string
}

// Migrate marks its run in progress under a key only this run knows.
// Near miss (silent): SET and DEL of a name unique to the run.
func (m *Migrator) Migrate(ctx context.Context, steps []func(context.Context) error) error {
	started := time.Now().UTC().Format("20060102T150405.000000000")
	marker := fmt.Sprintf("lock:%s:%s", m.ns, started)
	host, _ := os.Hostname()
	if err := m.rdb.Set(ctx, marker, host+":"+strconv.Itoa(os.Getpid()), 6*time.Hour).Err(); err != nil {
		return err
	}
	defer m.rdb.Del(ctx, marker)
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Running lists the markers of the runs still going.
func (m *Migrator) Running(ctx context.Context) ([]string, error) {
	return m.rdb.Keys(ctx, fmt.Sprintf("lock:%s:*", m.ns)).Result()
}

// MigrateExclusive lets one run per namespace in.
// Must report: a contended key taken with NX and deleted with no owner check.
func (m *Migrator) MigrateExclusive(ctx context.Context, steps []func(context.Context) error) error {
	key := fmt.Sprintf("lock:%s", m.ns)
	ok, err := m.rdb.SetNX(ctx, key, uuid.NewString(), time.Hour).Result()
	if err != nil || !ok {
		return fmt.Errorf("migration of %s already running", m.ns)
	}
	defer m.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Must report: a day's name is the same for every run of the day, so
// runs contend for it.
func (m *Migrator) MigrateDaily(ctx context.Context, steps []func(context.Context) error) error {
	key := fmt.Sprintf("lock:%s:%s", m.ns, time.Now().Format("2006-01-02"))
	if !m.rdb.SetNX(ctx, key, uuid.NewString(), time.Hour).Val() {
		return nil
	}
	defer m.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Near miss (silent): a name with a random part is the run's own.
func (m *Migrator) MigrateTagged(ctx context.Context, steps []func(context.Context) error) error {
	marker := "lock:" + m.ns + ":" + uuid.NewString()
	if err := m.rdb.Set(ctx, marker, "running", time.Hour).Err(); err != nil {
		return err
	}
	defer m.rdb.Del(ctx, marker)
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}
