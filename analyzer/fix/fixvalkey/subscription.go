// Code generated from ../fixrueidis by go generate; DO NOT EDIT.
// sha256 of the rest: b64a17dedc347ee975ebe28d86210ad4e422b31a8f145e7b2ae680050bc41e43

package fixvalkey

import (
	"sync"

	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/valkey-io/valkey-go"
)

// subscription is a dedicated connection with pub/sub hooks. The hooks
// queue their messages without bound, since they may not block, and
// forward hands them to Messages in order.
type subscription struct {
	dc      valkey.DedicatedClient
	sharded bool
	out     chan lock.Message
	kick    chan struct{}
	quit    chan struct{} // closed by Close
	once    sync.Once

	mu    sync.Mutex
	queue []lock.Message
	ended bool
}

func (s *subscription) Messages() <-chan lock.Message { return s.out }

func (s *subscription) push(m lock.Message) {
	s.mu.Lock()
	s.queue = append(s.queue, m)
	s.mu.Unlock()
	s.poke()
}

// end records that the connection ended: Messages closes once the queue
// is delivered.
func (s *subscription) end() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	s.poke()
}

func (s *subscription) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *subscription) forward() {
	defer close(s.out)
	for {
		s.mu.Lock()
		q, ended := s.queue, s.ended
		s.queue = nil
		s.mu.Unlock()
		for _, m := range q {
			select {
			case s.out <- m:
			case <-s.quit:
				return
			}
		}
		if ended {
			return
		}
		if len(q) == 0 {
			select {
			case <-s.kick:
			case <-s.quit:
				return
			}
		}
	}
}
