package lock

import "errors"

var (
	// ErrNotObtained reports that the lock is held by someone else and
	// Obtain gave up: after one attempt, after the configured attempts, or
	// when the wait ran out (then the error also matches the context's error).
	ErrNotObtained = errors.New("fix: lock not obtained")

	// ErrNotHeld reports that the token does not own the key: the lease
	// expired, another owner took over, or the lock was already released.
	ErrNotHeld = errors.New("fix: lock not held")

	// ErrLost is the cause of a lock's Context when the lock can no longer be
	// trusted: a renewal found it gone or the local lease ran out.
	ErrLost = errors.New("fix: lock lost")

	// ErrReleased is the cause of a lock's Context after Release.
	ErrReleased = errors.New("fix: lock released")
)

// Input errors are returned before any command is sent.
var (
	ErrNilClient    = errors.New("fix: nil redis client")
	ErrInvalidKey   = errors.New("fix: empty lock key")
	ErrInvalidTTL   = errors.New("fix: lock TTL must be positive")
	ErrInvalidToken = errors.New("fix: empty lock token")
	// ErrCrossSlot reports a fence key that cannot share the lock key's
	// Redis Cluster slot, so the acquire script could not touch both.
	ErrCrossSlot     = errors.New("fix: keys hash to different cluster slots")
	ErrInvalidOption = errors.New("fix: invalid option")
)

// ErrStaleFence reports a write carrying a fence no greater than one the
// resource already accepted: its writer lost the lock at some point.
var ErrStaleFence = errors.New("fix: stale fence")

// ErrTooFewReplicas reports that fewer replicas than WithReplicas asks for
// acknowledged a lock's write within the timeout. From Obtain it also
// matches ErrNotObtained: the lock was released again.
var ErrTooFewReplicas = errors.New("fix: too few replicas acknowledged the lock")
