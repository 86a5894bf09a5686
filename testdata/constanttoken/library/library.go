// Package library releases through the lock library's owner-checked
// Release and Refresh, in the go-redis v9 front and in the core: each is a
// release of the token it is given, so a loop that acquires again with
// the same token after it is reported, whatever client the core is given.
package library

import (
	"context"
	"crypto/rand"
	"log"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/fixredigo"
	"github.com/locklint/locklint/analyzer/fix/fixrueidis"
	"github.com/locklint/locklint/analyzer/fix/lock"
	redis9 "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

const ttl = 30 * time.Second

func frontLoop(ctx context.Context, rdb *redis9.Client, work func()) {
	token := rand.Text()
	for ctx.Err() == nil {
		if rdb.SetNX(ctx, "lock:sweeper", token, ttl).Val() { // want "lock key `\"lock:sweeper\"` acquired again with token `token` after the release on line 29"
			work()
			fix.Release(ctx, rdb, "lock:sweeper", token)
		}
		time.Sleep(time.Second)
	}
}

func coreLoop(ctx context.Context, conn redis.Conn, lc lock.Client, jobs <-chan string) {
	token := rand.Text()
	for job := range jobs {
		key := "lock:job:" + job
		if _, err := redis.String(conn.Do("SET", key, token, "NX", "PX", 30000)); err != nil { // want "lock key `key` acquired again with token `token` after the release on line 42"
			continue
		}
		lock.Release(ctx, lc, key, token)
	}
}

func refreshLoop(ctx context.Context, conn redis.Conn, lc lock.Client, jobs <-chan string) {
	token := rand.Text()
	for job := range jobs {
		key := "lock:job:" + job
		if _, err := redis.String(conn.Do("SET", key, token, "NX", "PX", 30000)); err != nil { // want "lock key `key` acquired again with token `token` after the release on line 53"
			continue
		}
		lock.Refresh(ctx, lc, key, token, ttl)
	}
}

// The core given an adapter's client, as the fixes write it.
func adapterLoop(ctx context.Context, conn redis.Conn, jobs <-chan string) {
	token := rand.Text()
	for job := range jobs {
		key := "lock:job:" + job
		if _, err := redis.String(conn.Do("SET", key, token, "NX", "PX", 30000)); err != nil { // want "lock key `key` acquired again with token `token` after the release on line 65"
			continue
		}
		lock.Release(ctx, fixredigo.Conn(conn), key, token)
	}
}

func rueidisLoop(ctx context.Context, client rueidis.Client, jobs <-chan string) {
	token := rand.Text()
	for job := range jobs {
		key := "lock:job:" + job
		if client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Px(ttl).Build()).Error() != nil { // want "lock key `key` acquired again with token `token` after the release on line 76"
			continue
		}
		lock.Release(ctx, fixrueidis.Client(client), key, token)
	}
}

// Near miss: the token handed to a function that is not a release.
func loggedLoop(ctx context.Context, conn redis.Conn, jobs <-chan string) {
	token := rand.Text()
	for job := range jobs {
		key := "lock:job:" + job
		if _, err := redis.String(conn.Do("SET", key, token, "NX", "PX", 30000)); err != nil {
			continue
		}
		log.Print(token)
	}
}
