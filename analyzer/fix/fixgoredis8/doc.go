// Package fixgoredis8 makes a lock.Client of a go-redis v8
// (github.com/go-redis/redis/v8) client, so that package lock's locks run
// over it:
//
//	c := fixgoredis8.Client(rdb) // once, next to the client
//	l, err := lock.Obtain(ctx, c, "lock:{sku42}", 30*time.Second, lock.WithFencing(), lock.WithMaxWait(5*time.Second))
//	if err != nil { return err } // errors.Is(err, lock.ErrNotObtained): someone else has it
//	defer l.Release(ctx)
//	err = l.Refresh(ctx, 30*time.Second) // renew, or obtain with lock.WithWatchdog
//
// It serves *redis.Client (failover clients too), *redis.ClusterClient
// and wrappers of them. A *redis.Ring cannot hold a lock (it remaps keys
// when a shard flaps, so two callers could each hold one on different
// shards): the Client made of a Ring fails every command with ErrRing.
//
// go-redis v8 has no sharded pub/sub (SSUBSCRIBE), which the library
// uses on a Cluster to wake waiters of other processes: on a
// ClusterClient those waiters are not woken by a release but re-check
// the lock on their timers (when its lease ends and at least every
// Backoff.Cap, 500 ms by default). Waiters of one process are handed the
// lock in process either way.
//
// go-redis v8.11.5's ClusterClient cannot parse the CLUSTER SLOTS reply
// of Redis 7.0 and later (each node gained a fourth element) and then
// fails every command with "got 4 elements in cluster info address"; a
// service on such a cluster gives it ClusterOptions.ClusterSlots.
//
// This module requires go-redis v8 and package lock's module, and no
// other Redis client.
package fixgoredis8
