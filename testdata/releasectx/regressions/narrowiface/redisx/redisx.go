// Package redisx is a service's Redis client: Lock takes a channel's lock
// with SET NX, a random token and a TTL, and Unlock gives it back with a
// compare-and-delete script under the context it is given.
package redisx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

var unlockScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

type Client struct{ rdb *redis.Client }

func New(rdb *redis.Client) *Client { return &Client{rdb: rdb} }

func lockKey(cid int) string { return "keypool:lock:" + strconv.Itoa(cid) }

func (c *Client) Lock(ctx context.Context, cid int) (string, bool, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", false, err
	}
	token := hex.EncodeToString(b)
	ok, err := c.rdb.SetNX(ctx, lockKey(cid), token, 5*time.Second).Result()
	return token, ok, err
}

func (c *Client) Unlock(ctx context.Context, cid int, token string) error { // want Unlock:"releases under parameter 0"
	return unlockScript.Run(ctx, c.rdb, []string{lockKey(cid)}, token).Err()
}
