// Package initguard pins a list semaphore whose Init takes "<ns>_lock"
// with SET NX and no expiry so that only the first Init of a namespace
// fills the permit list; the DEL that would drop it is commented out, and
// nothing else releases it. Taken once for good, it is an init guard, not
// a lock a dead holder leaves behind. The twin releases its guard after
// filling, so a crash between the two leaves the namespace locked.
package initguard

import (
	"fmt"

	"github.com/garyburd/redigo/redis"
)

type Semaphore struct {
	pool  *redis.Pool
	ns    string
	limit int
}

func (s *Semaphore) lockName() string  { return s.ns + "_lock" }
func (s *Semaphore) queueName() string { return s.ns + "_queue" }

func (s *Semaphore) TryLock(timeout int) (bool, error) {
	rc := s.pool.Get()
	defer rc.Close()
	var err error
	if timeout == 0 {
		_, err = redis.String(rc.Do("SET", s.lockName(), "locked", "NX"))
	} else {
		_, err = redis.String(rc.Do("SET", s.lockName(), "locked", "EX", timeout, "NX"))
	}
	if err == redis.ErrNil {
		return false, nil
	}
	return err == nil, err
}

// Near miss: the guard is never released.
func (s *Semaphore) Init() {
	if ok, _ := s.TryLock(0); !ok {
		return
	}
	rc := s.pool.Get()
	defer rc.Close()
	rc.Do("DEL", s.queueName())
	for i := 1; i <= s.limit; i++ {
		rc.Do("RPUSH", s.queueName(), fmt.Sprintf("token_%d", i))
	}
	// rc.Do("DEL", s.lockName())
}

type Pool struct {
	pool *redis.Pool
	ns   string
}

func (p *Pool) Fill(n int) {
	rc := p.pool.Get()
	defer rc.Close()
	if s, _ := redis.String(rc.Do("SET", p.ns+"_fill_lock", "locked", "NX")); s != "OK" { // want "acquired with no expiry"
		return
	}
	for i := 1; i <= n; i++ {
		rc.Do("RPUSH", p.ns+"_queue", fmt.Sprintf("token_%d", i))
	}
	rc.Do("DEL", p.ns+"_fill_lock")
}
