package rueidis

import (
	"context"
	"crypto/rand"
	mrand "math/rand"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/rueidis"
)

// A literal value.
func literal(ctx context.Context, client rueidis.Client) error {
	return client.Do(ctx, client.B().Set().Key("lock:feed").Value("locked").Nx().Px(30*time.Second).Build()).Error() // want "lock key `\"lock:feed\"` acquired with a non-unique token \\(the constant `\"locked\"`\\); use `lock\\.Obtain` via `fixrueidis\\.Client` or a crypto/rand token$"
}

// SETNX with a math/rand number.
func mathRand(ctx context.Context, client rueidis.Client, name string) (bool, error) {
	return client.Do(ctx, client.B().Setnx().Key("mutex:"+name).Value(strconv.Itoa(mrand.Intn(1000))).Build()).AsBool() // want "lock key `\"mutex:\" \\+ name` acquired with a non-unique token \\(math/rand\\)"
}

// A per-process constant in a package-level variable.
var owner = "worker-" + strconv.Itoa(mrand.Int())

func packageVar(ctx context.Context, client rueidis.Client) error {
	return client.Do(ctx, client.B().Set().Key("lock:sweep").Value(owner).Nx().Ex(time.Minute).Build()).Error() // want "lock key `\"lock:sweep\"` acquired with a non-unique token \\(package-level variable `owner`, math/rand\\)"
}

// Rounds of acquire and release, one token.
func rounds(ctx context.Context, client rueidis.Client, work func()) {
	token := uuid.NewString()
	for ctx.Err() == nil {
		if client.Do(ctx, client.B().Set().Key("lock:rounds").Value(token).Nx().Px(time.Second).Build()).Error() != nil { // want "lock key `\"lock:rounds\"` acquired again with token `token` after the release on line 39"
			continue
		}
		work()
		client.Do(ctx, client.B().Delex().Key("lock:rounds").Ifeq(token).Build())
	}
}

// Near misses.

func fresh(ctx context.Context, client rueidis.Client) error {
	return client.Do(ctx, client.B().Set().Key("lock:feed").Value(rand.Text()).Nx().Px(30*time.Second).Build()).Error()
}

func freshUUID(ctx context.Context, client rueidis.Client) error {
	return client.Do(ctx, client.B().Set().Key("lock:feed").Value(uuid.New().String()).Nx().Px(30*time.Second).Build()).Error()
}

// A constant on a cache key.
func cacheFill(ctx context.Context, client rueidis.Client, id string) error {
	return client.Do(ctx, client.B().Set().Key("cache:"+id).Value("1").Nx().Build()).Error()
}
