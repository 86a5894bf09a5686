// Package fix is the lock library of package lock for go-redis v9, the
// target of locklint's suggested fixes: Obtain, Release, Refresh and Do
// take a go-redis client, and the types, options and errors are lock's
// under the same names. It works with *redis.Client (including failover
// clients), *redis.ClusterClient and wrappers of them. Obtain rejects a
// *redis.Ring with ErrRing: a Ring remaps keys when a shard flaps, so two
// holders could coexist on different shards. The function forms Release
// and Refresh accept a Ring, since they only ever act for the token's
// owner, but after a remap they reach a shard without the key and report
// ErrNotHeld while the token lives on elsewhere until its lease ends.
//
//	l, err := fix.Obtain(ctx, rdb, "lock:{sku42}", 30*time.Second,
//		fix.WithFencing(), fix.WithMaxWait(5*time.Second))
//	if err != nil {
//		return err // errors.Is(err, fix.ErrNotObtained): someone else has it
//	}
//	defer l.Release(ctx)
//	return store.Write(l.Context(), l.Fence(), feed)
//
// What the lock guarantees, what it does not, the keys it uses and the
// ACL it needs are in package lock's documentation. With go-redis, a
// client built with default options ignores context deadlines for socket
// I/O and waits up to its ReadTimeout per try; the library then runs each
// command on a goroutine and stops waiting at the deadline. A client with
// ContextTimeoutEnabled is called directly (no goroutine) under a context
// that only its deadline ends; a context that can also be cancelled is
// waited for on a goroutine, since a cancellation ends no command.
package fix
