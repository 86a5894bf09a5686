// Package app acquires locks with tokens from idgen, a package of its own
// module that never touches Redis.
package app

import (
	"bytes"
	"context"
	"math/rand"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/constanttoken/regressions/tokenhelpers/idgen"
)

func randString(ctx context.Context, rdb *redis.Client, job string) bool {
	return rdb.SetNX(ctx, "lock:"+job, idgen.RandString(16), time.Minute).Val() // want "lock key `\"lock:\" \\+ job` acquired with a non-unique token \\(math/rand, returned by `idgen.RandString`\\)"
}

func host(ctx context.Context, rdb *redis.Client, job string) bool {
	return rdb.SetNX(ctx, "lock:"+job, idgen.Host(), time.Minute).Val() // want "lock key `\"lock:\" \\+ job` acquired with a non-unique token \\(`os\\.(Hostname|Getpid)`, returned by `idgen\\.Host`\\)"
}

func stamp(ctx context.Context, rdb *redis.Client, job string) bool {
	token := idgen.Stamp()
	return rdb.SetNX(ctx, "lock:"+job, token, time.Minute).Val() // want "lock key `\"lock:\" \\+ job` acquired with a non-unique token \\(`time.Now`, returned by `idgen.Stamp`\\)"
}

func owner(ctx context.Context, rdb *redis.Client, job string) bool {
	return rdb.SetNX(ctx, "lock:"+job, idgen.Owner(), time.Minute).Val() // want "lock key `\"lock:\" \\+ job` acquired with a non-unique token"
}

func instance(ctx context.Context, rdb *redis.Client, job string) bool {
	return rdb.SetNX(ctx, "lock:"+job, idgen.Instance(), time.Minute).Val() // want "lock key `\"lock:\" \\+ job` acquired with a non-unique token"
}

func worker(ctx context.Context, rdb *redis.Client, job string) bool {
	return rdb.SetNX(ctx, "lock:"+job, idgen.Worker(), time.Minute).Val() // want "lock key `\"lock:\" \\+ job` acquired with a non-unique token \\(`os\\.Getpid`|the goroutine id"
}

// Near misses: a fresh token from the helper package, and one whose origin
// is the caller's.

func fresh(ctx context.Context, rdb *redis.Client, job string) bool {
	return rdb.SetNX(ctx, "lock:"+job, idgen.NewToken(), time.Minute).Val()
}

func freshWithHost(ctx context.Context, rdb *redis.Client, job string) bool {
	return rdb.SetNX(ctx, "lock:"+job, idgen.Host()+":"+idgen.NewToken(), time.Minute).Val()
}

func callers(ctx context.Context, rdb *redis.Client, job, token string) bool {
	return rdb.SetNX(ctx, "lock:"+job, idgen.Prefixed(token), time.Minute).Val()
}

func pattern(ctx context.Context, rdb *redis.Client, job string) bool {
	return rdb.SetNX(ctx, "lock:"+job, idgen.Pattern(8), time.Minute).Val()
}

const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// token reseeds math/rand from the clock, draws into a buffer and appends
// the caller's id: the id does not make it unique per acquisition.
func token(id string) string {
	var b bytes.Buffer
	rand.Seed(time.Now().UnixNano())
	for i := 0; i < 8; i++ {
		b.WriteByte(alphabet[rand.Intn(len(alphabet))])
	}
	return b.String() + id
}

func buffered(ctx context.Context, rdb *redis.Client, job, id string) bool {
	return rdb.SetNX(ctx, "lock:"+job, token(id), time.Minute).Val() // want "lock key `\"lock:\" \\+ job` acquired with a non-unique token \\(math/rand, returned by `token`\\)"
}

// Near miss: a builder that holds only the caller's parts.
func label(owner, id string) string {
	var sb strings.Builder
	sb.WriteString(owner)
	sb.WriteByte(':')
	sb.WriteString(id)
	return sb.String()
}

func labelled(ctx context.Context, rdb *redis.Client, job, owner, id string) bool {
	return rdb.SetNX(ctx, "lock:"+job, label(owner, id), time.Minute).Val()
}

// Near miss: a builder written with a fresh token.
func freshBuilt(ctx context.Context, rdb *redis.Client, job string) bool {
	var sb strings.Builder
	sb.WriteString("w-")
	sb.WriteString(idgen.NewToken())
	return rdb.SetNX(ctx, "lock:"+job, sb.String(), time.Minute).Val()
}
