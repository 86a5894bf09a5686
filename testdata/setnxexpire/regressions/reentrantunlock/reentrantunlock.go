// Package reentrantunlock pins a reentrant hash lock's unlock script:
// it returns when the key is gone or the member holds no field, steps
// the member's hold count down with HINCRBY -1, and deletes the key when
// the count reaches zero. It takes nothing, so it needs no expiry; the
// lock script sets the TTL as it takes the key. The twin takes the hash
// with no PEXPIRE at all.
package reentrantunlock

import "github.com/gomodule/redigo/redis"

var lockScript = redis.NewScript(1, `
if redis.call("EXISTS", KEYS[1]) == 1 and redis.call("HEXISTS", KEYS[1], ARGV[1]) == 0 then
	return redis.call("PTTL", KEYS[1])
end
redis.call("HINCRBY", KEYS[1], ARGV[1], 1)
redis.call("PEXPIRE", KEYS[1], ARGV[2])
return -1`)

var unlockScript = redis.NewScript(2, `
if redis.call("EXISTS", KEYS[1]) == 0 then return -2 end
if redis.call("HEXISTS", KEYS[1], ARGV[1]) == 0 then return -3 end
if redis.call("HINCRBY", KEYS[1], ARGV[1], -1) ~= 0 then return -5 end
redis.call("DEL", KEYS[1])
redis.call("PUBLISH", KEYS[2], ARGV[2])
return -1`)

var holdScript = redis.NewScript(1, `
if redis.call("EXISTS", KEYS[1]) == 1 and redis.call("HEXISTS", KEYS[1], ARGV[1]) == 0 then
	return 0
end
return redis.call("HINCRBY", KEYS[1], ARGV[1], 1)`)

type Manager struct {
	pool   *redis.Pool
	name   string
	member string
}

// Near miss (silent): the TTL is set in the same script.
func (m *Manager) Lock() (int64, error) {
	conn := m.pool.Get()
	defer conn.Close()
	return redis.Int64(lockScript.Do(conn, m.name+":lock", m.member, 30000))
}

// Near miss (silent): the unlock script takes nothing.
func (m *Manager) Unlock() (int64, error) {
	conn := m.pool.Get()
	defer conn.Close()
	return redis.Int64(unlockScript.Do(conn, m.name+":lock", m.name+":unlock-notify", m.member, "unlocked"))
}

// Must report: a hash lock taken with no expiry.
func (m *Manager) Hold() (int64, error) {
	conn := m.pool.Get()
	defer conn.Close()
	return redis.Int64(holdScript.Do(conn, m.name+":lock", m.member)) // want "acquired with no expiry"
}
