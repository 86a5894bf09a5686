// Package redigoiface pins issue 32's miss of a redigo-shaped interface
// declared in the package for mocking: Conn has redigo's Do and Send, the
// package imports no client, and main wires a redigo connection in. The
// lock is taken with SET NX PX through Do and dropped with a plain DEL.
// The near miss releases through EVAL of a compare-and-delete script.
package redigoiface

import (
	"errors"
	"fmt"
)

// Conn is what the scheduler needs of redigo's redis.Conn; tests mock it.
type Conn interface {
	Do(commandName string, args ...interface{}) (reply interface{}, err error)
	Send(commandName string, args ...interface{}) error
	Flush() error
	Close() error
}

var ErrBusy = errors.New("job already running")

const releaseLua = `if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`

type Scheduler struct {
	dial  func() (Conn, error)
	token func() string
}

func (s *Scheduler) acquire(c Conn, job, token string) error {
	reply, err := c.Do("SET", "cron:lock:"+job, token, "PX", 60000, "NX")
	if err != nil {
		return fmt.Errorf("lock %s: %w", job, err)
	}
	if reply == nil {
		return ErrBusy
	}
	return nil
}

// Must report: the DEL removes whoever holds the job's lock now.
func (s *Scheduler) Run(job string, fn func() error) error {
	c, err := s.dial()
	if err != nil {
		return err
	}
	defer c.Close()
	if err := s.acquire(c, job, s.token()); err != nil {
		return err
	}
	defer c.Do("DEL", "cron:lock:"+job) // want "DEL of lock key `\"cron:lock:\" \\+ job` without an owner check"
	return fn()
}

// Near miss (silent): the release compares the token in one script.
func (s *Scheduler) RunOwned(job string, fn func() error) error {
	c, err := s.dial()
	if err != nil {
		return err
	}
	defer c.Close()
	token := s.token()
	if err := s.acquire(c, job, token); err != nil {
		return err
	}
	defer c.Do("EVAL", releaseLua, 1, "cron:lock:"+job, token)
	return fn()
}
