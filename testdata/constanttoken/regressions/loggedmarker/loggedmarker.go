// Package loggedmarker pins a per-period run claim whose key is named in
// a log line: the billing run takes billing_run_lock:<type>:<period>
// with SETNX of "running" and a TTL shorter than the period, and never
// releases, renews or reads it. A log line that prints the key hands it
// to nobody, so nothing compares the value. The near miss hands the key
// to another package, which may release it.
package loggedmarker

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// Silent: a run marker, logged when another instance has it.
func RunBilling(ctx context.Context, rdb *redis.Client, schedule string) {
	period := time.Now().Format("2006-01")
	key := fmt.Sprintf("billing_run_lock:%s:%s", schedule, period)
	ok, err := rdb.SetNX(ctx, key, "running", 23*time.Hour).Result()
	if err != nil || !ok {
		log.Printf("[%s] skip: lock %s held by another instance", schedule, key)
		return
	}
	slog.Info("lock acquired", "key", key)
	fmt.Println("distributing for", key)
}

// Must report: the key goes to a queue's consumer, which may release it
// by comparing the constant.
func RunRecordings(ctx context.Context, rdb *redis.Client, minute string) {
	key := fmt.Sprintf("recordings_run_lock:%s", minute)
	ok, err := rdb.SetNX(ctx, key, "running", 4*time.Minute).Result() // want "lock key `key` acquired with a non-unique token \\(the constant `\"running\"`\\)"
	if err != nil || !ok {
		log.Printf("skip: lock %s held", key)
		return
	}
	publish(ctx, uuid.NewString(), key)
}

var publish = func(ctx context.Context, id, runLock string) {}
