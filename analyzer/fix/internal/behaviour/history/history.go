// Package history checks a record of lock operations the way Jepsen checks
// a database: workers log what they asked and what they were told, a
// monitor logs what the server held, a fault client logs what was sent,
// and Check reads the three for violations of what a lock promises.
package history

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Op is one acquisition attempt of a worker: an Obtain and, when it
// returned a lock, the critical section and the Release. Times are read
// from the monotonic clock.
type Op struct {
	Process, Worker int
	Key             string
	Token           string // the token the Obtain used, "" if unknown
	Start, End      time.Time
	Err             error // Obtain's error; nil when it returned a lock
	MaxWait         time.Duration
	Fence           int64
	Until           time.Time // the lease's local end, read when obtained
	// For a lock: when Release was called and returned, and its error.
	ReleaseStart, ReleaseEnd time.Time
	ReleaseErr               error
	ReleaseTimeout           time.Duration
}

// Section is when the lock was the holder's to use: from Obtain's return to
// the release, or to the lease's end if that came first.
func (o Op) Section() (from, to time.Time) {
	to = o.ReleaseStart
	if o.Until.Before(to) || to.IsZero() {
		to = o.Until
	}
	return o.End, to
}

// Sample is one read of a key by the monitor: the value was there at some
// instant between Sent and Got ("" for no key).
type Sample struct {
	Key       string
	Sent, Got time.Time
	Value     string
}

// Command is one command the library sent, carrying Words.
type Command struct {
	Process int
	At      time.Time
	// Arrive is when the command reached the server (later than At when
	// stalled); Fault names the fault injected, "" for none.
	Arrive time.Time
	Kind   string
	Fault  string
	Words  []string
}

// History is a run's record.
type History struct {
	Ops      []Op
	Samples  []Sample
	Commands []Command
	// Slack is how late past its bound a call may return (scheduling on a
	// loaded machine); Expiry how much earlier than its lease a server may
	// expire a key (miniredis follows real time in steps); Grace how long a
	// failed or released lock's token may stay while the library's own
	// clean-up of it is under way.
	Slack, Expiry, Grace time.Duration
	// NotObtained reports an Obtain error that matches the library's
	// sentinel (the package checks any lock, so it imports none).
	NotObtained func(error) bool
}

// Violation is one broken promise.
type Violation struct {
	Property string
	Detail   string
}

func (v Violation) String() string { return v.Property + ": " + v.Detail }

// Properties checked, by name.
const (
	Exclusion    = "mutual exclusion"   // two sections of one key overlap
	KeyHeld      = "key held"           // the key lacked the holder's token during its section
	Fences       = "fences"             // a later section has a fence not above an earlier one
	Orphan       = "orphaned token"     // a failed Obtain's or released lock's token stayed in the key
	AfterRelease = "sent after release" // a command with a lock's token left after its Release returned
	BoundedWait  = "bounded wait"       // an Obtain or Release outlived its bound
	ErrorType    = "error type"         // an error that does not match its sentinel
)

// Check returns the violations in h.
func Check(h History) []Violation {
	var vs []Violation
	add := func(p, f string, args ...any) { vs = append(vs, Violation{p, fmt.Sprintf(f, args...)}) }
	byKey := map[string][]Op{}
	for _, o := range h.Ops {
		if o.Err == nil {
			byKey[o.Key] = append(byKey[o.Key], o)
		}
		if o.Err != nil && h.NotObtained != nil && !h.NotObtained(o.Err) {
			add(ErrorType, "obtain %s: %v does not match ErrNotObtained", o.Key, o.Err)
		}
		if o.MaxWait > 0 && o.End.Sub(o.Start) > o.MaxWait+h.Slack {
			add(BoundedWait, "obtain %s waited %s, max wait %s", o.Key, o.End.Sub(o.Start), o.MaxWait)
		}
		if !o.ReleaseStart.IsZero() && o.ReleaseTimeout > 0 && o.ReleaseEnd.Sub(o.ReleaseStart) > o.ReleaseTimeout+h.Slack {
			add(BoundedWait, "release %s took %s, release timeout %s", o.Key, o.ReleaseEnd.Sub(o.ReleaseStart), o.ReleaseTimeout)
		}
	}
	for key, ops := range byKey {
		slices.SortFunc(ops, func(a, b Op) int { return a.End.Compare(b.End) })
		for i, a := range ops {
			af, at := a.Section()
			for _, b := range ops[i+1:] {
				bf, _ := b.Section()
				if bf.Before(at.Add(-h.Expiry)) {
					add(Exclusion, "%s: %s (fence %d) from %s to %s and %s (fence %d) from %s",
						key, a.Token, a.Fence, stamp(af), stamp(at), b.Token, b.Fence, stamp(bf))
				}
			}
			if i > 0 && a.Fence != 0 && a.Fence <= ops[i-1].Fence {
				add(Fences, "%s: fence %d (%s) after fence %d (%s)", key, a.Fence, a.Token, ops[i-1].Fence, ops[i-1].Token)
			}
		}
	}
	vs = append(vs, keyHeld(h, byKey)...)
	vs = append(vs, orphans(h)...)
	vs = append(vs, afterRelease(h)...)
	return vs
}

// keyHeld checks the samples taken wholly inside a section; one violation
// per section.
func keyHeld(h History, byKey map[string][]Op) []Violation {
	var vs []Violation
	reported := map[string]bool{}
	for _, s := range h.Samples {
		for _, o := range byKey[s.Key] {
			from, to := o.Section()
			if o.Token != "" && !reported[o.Token] && s.Sent.After(from) && s.Got.Before(to.Add(-h.Expiry)) && s.Value != o.Token {
				reported[o.Token] = true
				vs = append(vs, Violation{KeyHeld, fmt.Sprintf("%s held %q at %s, inside the section of %s (%s to %s)",
					s.Key, s.Value, stamp(s.Sent), o.Token, stamp(from), stamp(to))})
			}
		}
	}
	return vs
}

// orphans: a failed Obtain's token, or a released lock's, seen in the key
// Grace after the call returned, unless a failed Obtain's error said the
// token may stay (until its lease ends, or until an attempt still in
// flight is answered).
func orphans(h History) []Violation {
	gone := map[string]time.Time{}
	why := map[string]string{}
	for _, o := range h.Ops {
		switch {
		case o.Token == "":
		case o.Err != nil && !admitsLeftover(o.Err):
			gone[o.Token], why[o.Token] = o.End, fmt.Sprintf("its Obtain failed with %q", o.Err)
		case o.Err == nil && !o.ReleaseEnd.IsZero() && o.ReleaseErr == nil:
			gone[o.Token], why[o.Token] = o.ReleaseEnd, "it was released"
		}
	}
	var vs []Violation
	seen := map[string]bool{}
	for _, s := range h.Samples {
		end, ok := gone[s.Value]
		if !ok || seen[s.Value] || !s.Sent.After(end.Add(h.Grace)) {
			continue
		}
		seen[s.Value] = true
		vs = append(vs, Violation{Orphan, fmt.Sprintf("%s held %q %s after %s",
			s.Key, s.Value, s.Sent.Sub(end).Round(time.Millisecond), why[s.Value])})
	}
	return vs
}

// admitsLeftover reports an Obtain error that says its token may stay.
func admitsLeftover(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "may remain") || strings.Contains(msg, "in the background") || strings.Contains(msg, "in flight")
}

// afterRelease: no command carrying a lock's token is sent after its
// Release returned.
func afterRelease(h History) []Violation {
	released := map[string]time.Time{}
	for _, o := range h.Ops {
		if o.Err == nil && !o.ReleaseEnd.IsZero() && o.Token != "" {
			released[o.Token] = o.ReleaseEnd
		}
	}
	var vs []Violation
	for _, c := range h.Commands {
		for _, w := range c.Words {
			if end, ok := released[w]; ok && c.At.After(end) {
				vs = append(vs, Violation{AfterRelease, fmt.Sprintf("%s %q sent %s after the release of %s returned",
					c.Kind, c.Words, c.At.Sub(end).Round(time.Microsecond), w)})
			}
		}
	}
	return vs
}

var epoch = time.Now()

func stamp(t time.Time) string { return t.Sub(epoch).Round(time.Microsecond).String() }

// String renders h one line per operation, command and key read, for a
// reader chasing a violation: grep it for the token.
func (h History) String() string {
	var sb strings.Builder
	for _, o := range h.Ops {
		fmt.Fprintf(&sb, "op p%d w%d %s %s obtain %s..%s %v release %s..%s %v\n", o.Process, o.Worker, o.Key, o.Token,
			stamp(o.Start), stamp(o.End), o.Err, stamp(o.ReleaseStart), stamp(o.ReleaseEnd), o.ReleaseErr)
	}
	for _, c := range h.Commands {
		fmt.Fprintf(&sb, "command p%d %s..%s %s %s %q\n", c.Process, stamp(c.At), stamp(c.Arrive), c.Kind, c.Fault, c.Words)
	}
	for _, s := range h.Samples {
		fmt.Fprintf(&sb, "read %s %s..%s %q\n", s.Key, stamp(s.Sent), stamp(s.Got), s.Value)
	}
	return sb.String()
}
