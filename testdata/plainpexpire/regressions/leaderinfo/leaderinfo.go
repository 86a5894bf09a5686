// Package leaderinfo pins issue 32's shape 6, an informational "who is
// leader" key: leadership is decided elsewhere (the cluster's own
// election), and the elected replica writes its name under leader:<svc>
// with a plain SET and a TTL on every tick so that a status page can show
// it. No one takes the key, so the SET overwrites no holder. The twins
// decide leadership with that key: they read it and, when it is empty or
// their own, write it with a plain SET, so two replicas that read it
// empty both lead (an acquire without NX), and a leader whose lease ran
// out overwrites the next one (a renewal in two round trips). A report
// written only when it changed reads the key to skip an equal write, and
// stays silent as well.
package leaderinfo

import (
	"context"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-go"
)

type Elector interface {
	IsLeader() bool
}

type Reporter struct {
	client  valkey.Client
	elector Elector
	service string
}

// Near miss (silent): a report of who leads, read by a status page.
func (r *Reporter) Tick(ctx context.Context) error {
	if !r.elector.IsLeader() {
		return nil
	}
	host, _ := os.Hostname()
	return r.client.Do(ctx, r.client.B().Set().Key("leader:"+r.service).Value(host).Ex(15*time.Second).Build()).Error()
}

func (r *Reporter) Leader(ctx context.Context) (string, error) {
	return r.client.Do(ctx, r.client.B().Get().Key("leader:"+r.service).Build()).ToString()
}

// Near miss (silent): the report, written only when it changed; the
// read skips a write of the same name, it checks no holder.
func (r *Reporter) Announce(ctx context.Context, host string) error {
	cur, err := r.client.Do(ctx, r.client.B().Get().Key("leader:"+r.service).Build()).ToString()
	if err == nil && cur == host {
		return nil
	}
	return r.client.Do(ctx, r.client.B().Set().Key("leader:"+r.service).Value(host).Ex(15*time.Second).Build()).Error()
}

// Must report: the key decides who leads, and is claimed without NX.
func (r *Reporter) Campaign(ctx context.Context, id string) (bool, error) {
	cur, err := r.client.Do(ctx, r.client.B().Get().Key("leader:"+r.service).Build()).ToString()
	if err != nil && !valkey.IsValkeyNil(err) {
		return false, err
	}
	if cur != "" && cur != id {
		return false, nil
	}
	err = r.client.Do(ctx, r.client.B().Set().Key("leader:"+r.service).Value(id).Ex(15*time.Second).Build()).Error() // want "SET of lock key `\"leader:\" \\+ r\\.service` (without NX overwrites whoever holds it|are two round trips)"
	return err == nil, err
}

// Must report: the same claim on go-redis v9, to tell the client from the shape.
func CampaignGoRedis(ctx context.Context, rdb *redis.Client, service, id string) (bool, error) {
	cur, err := rdb.Get(ctx, "leader:"+service).Result()
	if err != nil && err != redis.Nil {
		return false, err
	}
	if cur != "" && cur != id {
		return false, nil
	}
	err = rdb.Set(ctx, "leader:"+service, id, 15*time.Second).Err() // want "SET of lock key `\"leader:\" \\+ service` (without NX overwrites whoever holds it|are two round trips)"
	return err == nil, err
}
