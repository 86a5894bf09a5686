// Package library shows which entry of the lock library each client's
// commands get, the value a fix would pass it, and what the fix would
// replace: the go-redis v9 front takes the client itself, go-redis v8,
// redigo, rueidis and valkey-go go through the core and their adapter,
// and the clients with no adapter get no client value at all.
package library

import (
	"context"

	garyburd "github.com/garyburd/redigo/redis"
	redis7 "github.com/go-redis/redis/v7"
	redis8 "github.com/go-redis/redis/v8"
	"github.com/gomodule/redigo/redis"
	redis9 "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	"github.com/valkey-io/valkey-go"
)

func goRedis9(ctx context.Context, rdb *redis9.Client, ring *redis9.Ring, uc redis9.UniversalClient, cmd redis9.Cmdable, key string) error {
	rdb.Del(ctx, key)            // want `^DEL fix.Release client=rdb site=rdb.Del\(ctx, key\)$`
	ring.Del(ctx, key)           // want `^DEL fix.Release client=ring site=ring.Del\(ctx, key\)$`
	defer uc.Del(ctx, key)       // want `^DEL fix.Release client=uc site=uc.Del\(ctx, key\)$`
	_ = rdb.Del(ctx, key).Err()  // want `^DEL fix.Release client=rdb site=rdb.Del\(ctx, key\).Err\(\)$`
	n := rdb.Del(ctx, key).Val() // want `^DEL fix.Release client=rdb site=none$`
	cmd.Del(ctx, key)            // want `^DEL fix.Release client=none site=cmd.Del\(ctx, key\)$`
	pipe := rdb.TxPipeline()
	pipe.Del(ctx, key) // want `^DEL fix.Release client=none site=pipe.Del\(ctx, key\)$`
	_ = n
	return rdb.Del(ctx, key).Err() // want `^DEL fix.Release client=rdb site=rdb.Del\(ctx, key\).Err\(\)$`
}

func goRedis8(ctx context.Context, rdb *redis8.Client, cc *redis8.ClusterClient, key string) error {
	cc.Del(ctx, key)               // want `^DEL lock.Release via fixgoredis8.Client client=cc site=cc.Del\(ctx, key\)$`
	return rdb.Del(ctx, key).Err() // want `^DEL lock.Release via fixgoredis8.Client client=rdb site=rdb.Del\(ctx, key\).Err\(\)$`
}

// go-redis v7 has no adapter: the message names the core alone, and no
// fix has a client to pass it.
func goRedis7(rdb *redis7.Client, key string) error {
	return rdb.Del(key).Err() // want `^DEL lock.Release client=none site=rdb.Del\(key\).Err\(\)$`
}

func redigo(ctx context.Context, conn redis.Conn, pool *redis.Pool, key string) error {
	conn.Do("DEL", key)                            // want `^DEL lock.Release via fixredigo.Conn client=conn site=conn.Do\("DEL", key\)$`
	redis.DoContext(conn, ctx, "DEL", key)         // want `^DEL lock.Release via fixredigo.Conn client=conn site=redis.DoContext\(conn, ctx, "DEL", key\)$`
	reply, err := conn.Do("DEL", key)              // want `^DEL lock.Release via fixredigo.Conn client=conn site=none$`
	_, err = conn.Do("DEL", key)                   // want `^DEL lock.Release via fixredigo.Conn client=conn site=conn.Do\("DEL", key\) blank$`
	if _, err := conn.Do("DEL", key); err != nil { // want `^DEL lock.Release via fixredigo.Conn client=conn site=conn.Do\("DEL", key\) blank$`
		return err
	}
	// A connection taken in the same expression: the pool is the client,
	// since wrapping the connection would leave it unclosed.
	pool.Get().Do("DEL", key) // want `^DEL lock.Release via fixredigo.Pool client=pool site=pool.Get\(\).Do\("DEL", key\)$`
	_ = reply
	return err
}

// garyburd/redigo, redigo's old import path, has no adapter.
func garyburdRedigo(conn garyburd.Conn, key string) {
	conn.Do("DEL", key) // want `^DEL lock.Release client=none site=conn.Do\("DEL", key\)$`
}

func rueidisClient(ctx context.Context, client rueidis.Client, key string) error {
	client.Do(ctx, client.B().Del().Key(key).Build()) // want `^DEL lock.Release via fixrueidis.Client client=client site=client.Do\(ctx, client.B\(\).Del\(\).Key\(key\).Build\(\)\)$`
	// A dedicated connection is not a rueidis.Client.
	_ = client.Dedicated(func(dc rueidis.DedicatedClient) error {
		return dc.Do(ctx, dc.B().Del().Key(key).Build()).Error() // want `^DEL lock.Release via fixrueidis.Client client=none site=dc.Do\(ctx, dc.B\(\).Del\(\).Key\(key\).Build\(\)\).Error\(\)$`
	})
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error() // want `^DEL lock.Release via fixrueidis.Client client=client site=client.Do\(ctx, client.B\(\).Del\(\).Key\(key\).Build\(\)\).Error\(\)$`
}

func valkeyClient(ctx context.Context, client valkey.Client, key string) error {
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error() // want `^DEL lock.Release via fixvalkey.Client client=client site=client.Do\(ctx, client.B\(\).Del\(\).Key\(key\).Build\(\)\).Error\(\)$`
}

// A service's own interface with go-redis's method signatures: its calls
// name the entry of the go-redis version the signatures name, and get no
// client value, since a fix would rewrite the wrapper.
type store9 interface {
	Del(ctx context.Context, keys ...string) *redis9.IntCmd
}

type store8 interface {
	Del(ctx context.Context, keys ...string) *redis8.IntCmd
}

func wrappers(ctx context.Context, s9 store9, s8 store8, key string) {
	s9.Del(ctx, key) // want `^DEL fix.Release client=none site=s9.Del\(ctx, key\)$`
	s8.Del(ctx, key) // want `^DEL lock.Release via fixgoredis8.Client client=none site=s8.Del\(ctx, key\)$`
}
