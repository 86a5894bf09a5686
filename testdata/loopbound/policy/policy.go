// Package policy holds retry helpers in a package that never touches
// Redis: their bounds reach the callers' loops as facts.
package policy

import "time"

// Window is open until its deadline.
type Window struct{ end time.Time }

// NewWindow opens a window of d.
func NewWindow(d time.Duration) Window { return Window{end: time.Now().Add(d)} }

// Over reports whether the window has closed.
func (w Window) Over() bool { return !time.Now().Before(w.end) } // want Over:"bound: clock on receiver"

// Allow reports whether another attempt is allowed.
func Allow(attempt, limit int) bool { return attempt < limit } // want Allow:"bound: attempts on attempt, limit"

// Always is a policy that never says stop: it bounds nothing.
func Always(int) bool { return true }
