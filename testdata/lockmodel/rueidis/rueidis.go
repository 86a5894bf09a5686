// Package rueidis shows what the model records for rueidis builder chains.
package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func commands(ctx context.Context, c rueidis.Client, id, token string) {
	c.Do(ctx, c.B().Set().Key("lock:"+id).Value(token).Nx().Px(time.Second).Build()) // want `^SET key="lock:" \+ id value=token ttl=time.Second NX lock=name$`
	c.Do(ctx, c.B().Del().Key("lock:"+id).Build())                                   // want `^DEL key="lock:" \+ id lock=name$`
	c.DoMulti(ctx,
		c.B().Setnx().Key("k").Value(token).Build(), // want `^SETNX key="k" value=token ttl=none NX queued$`
		c.B().Expire().Key("k").Seconds(30).Build(), // want `^EXPIRE key="k" ttl=30 queued lock=acquire$`
	)
}

// The reply of a built command is what the client's Do returns, and what
// chains on it: a GET read with ToString and compared with the caller's
// token is an owner check, as go-redis's Result compared is.
func owner(ctx context.Context, c rueidis.Client, id, token string) bool {
	cur, err := c.Do(ctx, c.B().Get().Key("job:"+id).Build()).ToString() // want `^GET key="job:" \+ id compared$`
	return err == nil && cur == token
}
