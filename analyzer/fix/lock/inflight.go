package lock

import (
	"sync"
	"time"
)

// lateAttempt is what an Obtain shares with an attempt it stopped waiting
// for. Its context ended with the command in flight; the command still
// runs, and its reply may come after Obtain returned. Whether the token
// it may have set is then removed depends on how Obtain ended:
//   - a failed Obtain owns nothing, so such a token is an orphan;
//   - an Obtain that returned a lock with the same token (a release
//     handed the waiter the lock meanwhile) owns the key, and removing
//     the token would free a lock that is held.
//
// So the late reply is handled only once Obtain has settled, and the
// release of that lock waits (within half its timeout) for the late
// reply, so that its delete follows anything the attempt set.
type lateAttempt struct {
	mu sync.Mutex
	// On mu: Obtain settled. Made with handled, by prepare, so that an
	// Obtain that leaves nothing in flight does not carry it.
	cond *sync.Cond
	// Set by Obtain's goroutine, under mu, when it leaves an attempt in
	// flight; read without mu by that goroutine only.
	abandoned bool
	settled   bool
	gaveUp    bool          // the lock's release stopped waiting for it
	lock      *Lock         // what Obtain returned; nil when it failed
	handled   chan struct{} // closed once the late reply was handled
}

// abandon records that an attempt was left in flight. Called by Obtain's
// goroutine, at most once.
func (lt *lateAttempt) abandon() {
	lt.mu.Lock()
	lt.abandoned = true
	lt.prepare()
	lt.mu.Unlock()
}

// prepare makes what the late reply and the release wait with. The reply
// may come first: bounded hands it over as soon as it stops waiting, before
// Obtain's goroutine calls abandon. Called with mu held.
func (lt *lateAttempt) prepare() {
	if lt.handled == nil {
		lt.handled = make(chan struct{})
		lt.cond = sync.NewCond(&lt.mu)
	}
}

// settle records Obtain's outcome, l or nil; the first call counts.
func (lt *lateAttempt) settle(l *Lock) {
	if !lt.abandoned {
		return
	}
	lt.mu.Lock()
	if !lt.settled {
		lt.settled, lt.lock = true, l
		if lt.cond != nil {
			lt.cond.Broadcast()
		}
	}
	lt.mu.Unlock()
}

// reply handles the late reply, on the attempt's goroutine: maybeSet says
// the attempt took the lock or may have. remove deletes the token; it
// runs when Obtain failed, or when the lock it returned is past the
// point where its release waits for this reply.
func (lt *lateAttempt) reply(maybeSet bool, remove func()) {
	lt.mu.Lock()
	lt.prepare()
	for !lt.settled {
		lt.cond.Wait()
	}
	orphan := maybeSet && (lt.lock == nil || lt.gaveUp)
	lt.mu.Unlock()
	if orphan {
		remove()
	}
	close(lt.handled)
}

// await waits up to d for the late reply to be handled, before the lock's
// release sends its delete.
func (lt *lateAttempt) await(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-lt.handled:
	case <-t.C:
		lt.mu.Lock()
		lt.gaveUp = true
		lt.mu.Unlock()
	}
}
