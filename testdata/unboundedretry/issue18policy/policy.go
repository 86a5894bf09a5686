// Package issue18policy is a retry-policy package of the kind services
// share: it never touches Redis, and its callers' loops are bounded by
// what it decides.
package issue18policy

import (
	"context"
	"time"
)

// Window is a deadline fixed when it is made.
type Window struct{ deadline time.Time }

func NewWindow(d time.Duration) Window { return Window{deadline: time.Now().Add(d)} }

// Open is on a value receiver.
func (w Window) Open() bool { return time.Now().Before(w.deadline) } // want Open:"bound: clock on receiver"

// Budget counts attempts down.
type Budget struct{ left int }

func NewBudget(n int) *Budget { return &Budget{left: n} }

// Take is on a pointer receiver and spends one attempt.
func (b *Budget) Take() bool { // want Take:"bound: budget on receiver"
	if b.left == 0 {
		return false
	}
	b.left--
	return true
}

// Policy decides from the attempt number it is given.
type Policy struct {
	Base time.Duration
	Max  int
}

// Next returns the pause before the next attempt, and false once the
// attempts are spent.
func (p *Policy) Next(attempt int) (time.Duration, bool) { // want Next:"bound: attempts on attempt"
	if attempt >= p.Max {
		return 0, false
	}
	return p.Base << attempt, true
}

// Forever is a policy whose Next never says stop.
type Forever struct{ Base time.Duration }

func (f Forever) Next(attempt int) (time.Duration, bool) { return f.Base, true }

// Done reports that the context is over.
func Done(ctx context.Context) bool { return ctx.Err() != nil } // want Done:"bound: context"

// Expired compares the clock with the deadline it is given.
func Expired(deadline time.Time) bool { return time.Now().After(deadline) } // want Expired:"bound: clock on deadline"

// Within is generic over the attempt's integer type.
func Within[N ~int | ~int32 | ~int64](attempt, limit N) bool { return attempt < limit } // want Within:"bound: attempts on attempt, limit"

// Span is a generic window with a tag.
type Span[T any] struct {
	Tag T
	end time.Time
}

func NewSpan[T any](tag T, d time.Duration) *Span[T] {
	return &Span[T]{Tag: tag, end: time.Now().Add(d)}
}

func (s *Span[T]) Over() bool { return !time.Now().Before(s.end) } // want Over:"bound: clock on receiver"

// Logged notes slow attempts and always allows another.
func Logged(attempt int) bool {
	if attempt > 100 {
		println("slow lock", attempt)
	}
	return true
}
