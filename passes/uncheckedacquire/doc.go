// Package uncheckedacquire defines an Analyzer that reports lock acquires
// whose outcome the code never tests, so that the critical section runs
// whether or not the lock was taken.
//
// # Analyzer uncheckedacquire
//
// uncheckedacquire: report lock acquires whose result is not checked before the work they guard
//
// An acquire that loses (another process holds the key) is not an error
// to most clients: go-redis's SetNX gives false and a nil error, SETNX
// replies 0, and redigo's SET NX gives a nil reply with a nil error. Code
// that drops the reply, checks only the error, or reads the reply only to
// decide whether to defer the release runs its critical section beside
// the holder, and mutual exclusion is gone:
//
//	if err := rdb.SetNX(ctx, "lock:job", token, ttl).Err(); err != nil {
//		return err
//	}
//	runJob() // runs when another worker holds the lock, too
//
// Test the reply, and return when the lock was not taken:
//
//	ok, err := rdb.SetNX(ctx, "lock:job", token, ttl).Result()
//	if err != nil || !ok {
//		return err
//	}
//
// or use fix.Obtain from github.com/locklint/locklint/analyzer/fix,
// whose error says whether the lock was taken. Its error must be checked
// too: `l, _ := fix.Obtain(...)`, a check of ErrNotObtained alone
// that lets every other error fall into the work (its branch may hand
// the error on, return err: that is the sentinel, no other test) (a second test, if
// err == nil { defer l.Release(ctx) }, only chooses the release and
// checks nothing), and a branch on
// ErrNotObtained or on err != nil that only logs and falls through into
// the work, are reported (a branch whose block then waits, time.Sleep
// or a select that only receives, and continues its loop leads back to
// the acquire, not into the work: a leader loop's back-off); an err !=
// nil in the else-if of an
// ErrNotObtained test that returns holds for the other errors only, and
// is reported as such when it only logs, and a test that returns on
// every error but the miss (err != nil && err != ErrNotObtained, or
// !errors.Is(err, ErrNotObtained)) lets a held lock into the work and is
// reported. A logger's Fatal or Panic line
// (log's, logrus's, zap's, a zerolog event begun by Fatal) ends the
// function. A lock package of the module's own is read the
// same way: an exported function that acquires a lock key and returns
// the package's own error when the lock is held, or an error it makes
// there (errors.New, fmt.Errorf), and that error, when it returns once
// the lock is taken (a log line, a goroutine that renews it) rather than
// doing work of its own under it (a session start that writes a status
// and publishes the command, and returns that work's error: its caller
// runs nothing under the lock); so is one that calls
// another lock library's acquire and returns the package's own error,
// or one it makes, where it tests the library's not-obtained one (if errors.Is(err,
// redislock.ErrNotObtained) { return ErrNotObtained }), and the method
// of an exported interface of its package that it implements (a
// service's Locker); so is a use case's method of another package that
// only forwards its parameters to a method of its own interface
// (return uc.repo.Lock(key, ttl)), when the implementations of that
// interface in the packages the caller imports all send the same
// command (a data layer's SETNX); so are redsync's Mutex Lock,
// LockContext, TryLock and TryLockContext and bsm/redislock's Obtain,
// whose error is dropped when the call is a statement of its own. Any
// call whose error the package compares with one of those not-obtained
// errors is read as an acquire too (a Lock method of the service's own
// interface whose implementation returns redislock.ErrNotObtained),
// unless it runs the work itself (fix.Do, or a call given the work as a
// function), where the error says the work did not run.
//
// Where a miss shows as an error, a check of the error is a check of the
// acquire: go-redis's SET NX (SetArgs, Do) and redigo's SET NX through
// redis.String give the client's nil error, and rueidis and valkey-go a
// nil response from Error. A helper that returns only the error of a
// SetNX (func Lock() error { return rdb.SetNX(...).Err() }) is reported
// at the acquire: its callers proceed when the lock is held by another.
// So is a helper whose one bool result is whether the error of the
// acquire was nil (return err == nil), when a miss leaves that error nil:
// a script acquire whose every way out returns a number answers a held
// lock with 0 and no error. A take helper, of the package or of another
// package of the module, that tests the reply and returns whether it got
// the lock as its one bool (func Lock(key string) bool, which deletes no
// key itself, and expires one only to give back the lease of a key a dead
// holder left with none) is reported at each call that drops that bool as
// a statement of its own and then works and releases through a helper
// that deletes, with one of the same arguments (redis.Lock(key); work;
// redis.Unlock(key)), or, for a helper of the package, when another
// function of the package gives the key back behind an atomic owner
// check: a claim its holder returns later, wherever that is (a game
// entity's tile, given back when it moves: UnlockTile(id, oldX, oldY);
// LockTile(id, x, y); the position is written whoever stands there). A
// mark nothing gives back with an owner check is kept to its TTL, and
// dropping its reply is left alone.
//
// A reply that is tested but does not keep the work from running is
// reported too, where the function releases the key afterwards: the
// branch for a lock held elsewhere (if !ok) re-enqueues the event or
// logs and then falls through into the work and the release, or the
// reply only decides whether to release (if locked { Unlock(key) }
// after the work; a call that passes none of the acquire's arguments and
// is no method of its handle, such as a sweep that deletes other keys,
// is work, not a release). The acquire may be a thin wrapper of the package
// that returns a store's Lock whole (LockEvent(id) { key := ...; return
// d.store.Lock(key, ttl) }), a take helper of the package or of another
// (a handle's l.Lock(ctx), released by l.Unlock, directly or through a
// deferred literal given l), and the release one that returns its
// Unlock, of this package or of an interface of another whose
// implementation there deletes. A test of a take helper that returns
// when the lock was taken (if redis.Lock(key) { return }), with the work
// and the release after it, is inverted: the work runs when another
// holds the lock, and is reported.
//
// The analyzer is silent wherever the result is checked in any style (an
// early return, if !ok, a switch, a retry loop, a comparison) or leaves
// the function (returned, passed to a call, sent on a channel, stored in
// a field), and on a set-if-absent that guards nothing: a key that is not
// a lock key, that nothing in the package deletes, expires or releases,
// or an acquire after which the function only returns. _test.go files
// are skipped unless -tests is given.
//
// There is no suggested fix: what the code should do when the lock is
// held (return, retry, report) is the code's decision.
package uncheckedacquire
