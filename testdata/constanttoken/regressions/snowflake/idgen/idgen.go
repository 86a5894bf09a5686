// Package idgen makes ids: a snowflake (the clock in milliseconds, a
// machine id and a sequence stepped on each call under a mutex), and,
// for the twin, the clock joined with the machine id alone.
package idgen

import (
	"sync"
	"time"
)

type generator struct {
	mu      sync.Mutex
	machine int64
	seq     int64
	last    int64
}

var gen = &generator{}

// Init sets the machine id, unique per process of the service.
func Init(machine int64) { gen.machine = machine }

func (g *generator) next() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now().UnixMilli()
	if now == g.last {
		g.seq = (g.seq + 1) & 4095
	} else {
		g.seq = 0
	}
	g.last = now
	return now<<22 | g.machine<<12 | g.seq
}

// Gen returns a snowflake id.
func Gen() int64 { return gen.next() }

// Stamp returns the clock joined with the machine id: two calls in one
// millisecond get the same value.
func Stamp() int64 { return time.Now().UnixMilli()<<10 | gen.machine }
