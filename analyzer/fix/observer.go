package fix

import "time"

// Observer receives a lock's events, for metrics and logs; any field may be
// nil. The functions run synchronously on the lock's goroutines and must
// return quickly.
type Observer struct {
	// Acquired is called once per Obtain: the time spent, the attempts made
	// and the outcome (nil when the lock was obtained).
	Acquired func(key string, wait time.Duration, attempts int, err error)
	// Contended is called for each attempt that found the lock taken.
	Contended func(key string, attempt int)
	// Renewed is called for each watchdog renewal, with its error.
	Renewed func(key string, err error)
	// Lost is called once when the lock's Context ends with ErrLost.
	Lost func(key string, cause error)
	// Released is called after an owner-checked delete, with the command
	// that ran and whether the lock was still held.
	Released func(key string, path ReleasePath, held bool)
}

func (o *Observer) acquired(key string, wait time.Duration, attempts int, err error) {
	if o.Acquired != nil {
		o.Acquired(key, wait, attempts, err)
	}
}

func (o *Observer) contended(key string, attempt int) {
	if o.Contended != nil {
		o.Contended(key, attempt)
	}
}

func (o *Observer) renewed(key string, err error) {
	if o.Renewed != nil {
		o.Renewed(key, err)
	}
}

func (o *Observer) lost(key string, cause error) {
	if o.Lost != nil {
		o.Lost(key, cause)
	}
}

func (o *Observer) released(key string, path ReleasePath, held bool) {
	if o.Released != nil {
		o.Released(key, path, held)
	}
}
