// Package ifacegetter pins the held-out miss of a clock token read through
// an interface getter (ggicci/distlock's shape): the mutex's owner is
// time.Now().UnixNano() formatted once in its constructor, and the pool's
// Lock reads key and owner through the NamedLock interface the mutex
// implements. Two mutexes made in one tick, or on two hosts, share the
// owner, and Unlock's compare passes for either. The near misses are the
// same shape with an owner drawn from uuid in the constructor, and a getter
// whose two implementations disagree (a fixed owner and a random one).
package ifacegetter

import (
	"errors"
	"strconv"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/google/uuid"
)

var ErrLockHeld = errors.New("distlock: held by another owner")

var unlockScript = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

type NamedLock interface {
	GetId() string
	GetOwner() string
}

type RedisPool interface {
	Get() redis.Conn
}

type Provider struct {
	pool RedisPool
	ttl  time.Duration
}

type mutex struct {
	id    string
	owner string
	p     *Provider
}

func (p *Provider) NewMutex(id string) *mutex {
	return &mutex{id: id, owner: strconv.FormatInt(time.Now().UnixNano(), 10), p: p}
}

func (m *mutex) GetId() string    { return m.id }
func (m *mutex) GetOwner() string { return m.owner }
func (m *mutex) Lock() error      { return m.p.Lock(m) }
func (m *mutex) Unlock() error    { return m.p.Unlock(m) }

// Must report: the owner is a clock reading made once per mutex.
func (p *Provider) Lock(lock NamedLock) error {
	conn := p.pool.Get()
	defer conn.Close()
	_, err := redis.String(conn.Do("SET", lock.GetId(), lock.GetOwner(), "PX", p.ttl.Milliseconds(), "NX")) // want "lock key `lock\\.GetId\\(\\)` acquired with a non-unique token \\(.*`time\\.Now`.*\\)"
	if err == redis.ErrNil {
		return ErrLockHeld
	}
	return err
}

func (p *Provider) Unlock(lock NamedLock) error {
	conn := p.pool.Get()
	defer conn.Close()
	_, err := unlockScript.Do(conn, lock.GetId(), lock.GetOwner())
	return err
}

type HeldLease interface {
	Key() string
	Token() string
}

type lease struct{ key, token string }

func NewLease(key string) HeldLease { return &lease{key: key, token: uuid.NewString()} }
func (l *lease) Key() string        { return l.key }
func (l *lease) Token() string      { return l.token }

// Near miss (silent): the owner behind the getter is random.
func (p *Provider) Acquire(l HeldLease) error {
	conn := p.pool.Get()
	defer conn.Close()
	_, err := redis.String(conn.Do("SET", l.Key(), l.Token(), "PX", p.ttl.Milliseconds(), "NX"))
	if err == redis.ErrNil {
		return ErrLockHeld
	}
	return err
}

func (p *Provider) Release(l HeldLease) error {
	conn := p.pool.Get()
	defer conn.Close()
	_, err := unlockScript.Do(conn, l.Key(), l.Token())
	return err
}

type JobOwner interface {
	OwnerID() string
}

type fixedOwner struct{}

func (fixedOwner) OwnerID() string { return "single" }

type jobOwner struct{ job string }

func (o jobOwner) OwnerID() string { return o.job + ":" + uuid.NewString() }

// Near miss (silent): the two implementations disagree, a fixed owner for
// a single process beside a random one per run; which one reaches RunJob
// is not in sight.
func (p *Provider) RunJob(key string, o JobOwner, work func()) error {
	conn := p.pool.Get()
	defer conn.Close()
	tok := o.OwnerID()
	if _, err := redis.String(conn.Do("SET", key, tok, "PX", p.ttl.Milliseconds(), "NX")); err != nil {
		return err
	}
	defer unlockScript.Do(conn, key, tok)
	work()
	return nil
}
