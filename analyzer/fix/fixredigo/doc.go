// Package fixredigo makes a lock.Client of a redigo (github.com/gomodule/redigo)
// pool or connection, so that package lock's locks run over it:
//
//	c := fixredigo.Pool(pool) // once, next to the pool
//	l, err := lock.Obtain(ctx, c, "lock:{sku42}", 30*time.Second, lock.WithFencing(), lock.WithMaxWait(5*time.Second))
//	if err != nil { return err } // errors.Is(err, lock.ErrNotObtained): someone else has it
//	defer l.Release(ctx)
//	err = l.Refresh(ctx, 30*time.Second) // renew, or obtain with lock.WithWatchdog
//
// Pool is the one to use: each command takes a connection of the pool,
// and waiters of other processes are woken through a pub/sub connection
// of the pool. Conn serves code that holds a single connection; its
// waiters re-check the lock on their timers instead (see Conn).
//
// redigo has no Cluster client, so neither value is one: the lock key,
// its fence and queue keys must all live on the pool's server.
//
// This module requires redigo and package lock's module, nothing else.
package fixredigo
