package scheduler

import (
	"context"
	"sync"
	"time"

	"github.com/valkey-io/valkey-go"
)

// Manager drops a message it has seen: acquireLock is a dedupe helper
// whose every call passes a key built from a constant text, and nothing
// in the package gives such a key back or reads it: silent.
type Manager struct {
	vk   valkey.Client
	seen sync.Map
}

func (m *Manager) tryLockMessage(channel, id, text string) bool {
	if !m.acquireLock("d:i:"+id, 2*time.Minute) {
		return false
	}
	contentKey := "d:c:" + channel + ":" + text
	return m.acquireLock(contentKey, 5*time.Second)
}

func (m *Manager) acquireLock(key string, ttl time.Duration) bool {
	if m.vk == nil {
		// Without valkey, an in-process map stands in.
		if _, loaded := m.seen.LoadOrStore(key, time.Now()); loaded {
			return false
		}
		time.AfterFunc(ttl, func() { m.seen.Delete(key) })
		return true
	}
	res := m.vk.Do(context.Background(), m.vk.B().Set().Key(key).Value("1").Nx().Ex(ttl).Build())
	return res.Error() == nil
}

func (m *Manager) Handle(channel, id, text string) bool {
	return m.tryLockMessage(channel, id, text)
}

// Worker's helper takes job locks that Finish gives back with a compare
// of the constant: reported.
type Worker struct {
	vk valkey.Client
}

func (w *Worker) acquireLock(key string, ttl time.Duration) bool {
	res := w.vk.Do(context.Background(), w.vk.B().Set().Key(key).Value("1").Nx().Ex(ttl).Build()) // want `lock key .key. \(key of .\(\*Worker\)\.acquireLock.\) acquired with a non-unique token`
	return res.Error() == nil
}

func (w *Worker) Start(job string) bool {
	return w.acquireLock("job:lock:"+job, time.Minute)
}

func (w *Worker) Finish(ctx context.Context, job string) {
	w.vk.Do(ctx, w.vk.B().Eval().Script(release).Numkeys(1).Key("job:lock:"+job).Arg("1").Build())
}
