// Package captcharecord pins a framework's captcha store: the code sent
// to a user is stored with a plain SET and a TTL, and verifying reads it
// back, compares it with what the user typed, and deletes it on a match.
// Nothing in the package takes a key exclusively: the GET-compare is a
// check of a record, not of an owner, and the DEL ends the record's use:
// silent. The twin's package takes its keys with SET NX, and there a
// GET-compare before a separate DEL is a hand-rolled owner check in two
// round trips: reported.
package captcharecord

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

type Captcha struct {
	rdb    *redis.Client
	expire time.Duration
}

func (c *Captcha) uidByUUID(uuid string) string { return "captcha:" + uuid }

// Send stores the code under a key it builds itself, so the record's
// write and its check name the key two ways.
func (c *Captcha) Send(ctx context.Context, scene, uuid, code string) error {
	return c.rdb.Set(ctx, "captcha:"+uuid, scene+":"+code, c.expire).Err()
}

func (c *Captcha) Verify(ctx context.Context, scene, uuid, typed string) error {
	uid := c.uidByUUID(uuid)
	aid := scene + ":" + typed
	stored, err := c.rdb.Get(ctx, uid).Result()
	if err != nil || stored != aid {
		return errors.New("invalid captcha")
	}
	return c.rdb.Del(ctx, uid).Err()
}
