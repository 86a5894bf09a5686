package goredis

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// An inline script that deletes the lock outright.
var unlock = redis.NewScript(`return redis.call('DEL', KEYS[1])`) // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `\"lock:\" \\+ job`\\) with no owner check"

func release(ctx context.Context, rdb *redis.Client, job string) error {
	return unlock.Run(ctx, rdb, []string{"lock:" + job}).Err()
}

// A constant passed to EVAL: reported where its text is written.
const forceUnlock = "redis.call('del', KEYS[1]) return 1" // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `lockKey`\\) with no owner check"

func releaseEval(ctx context.Context, rdb redis.UniversalClient, lockKey string) error {
	return rdb.Eval(ctx, forceUnlock, []string{lockKey}).Err()
}

// A renewal script with no owner check, key from a helper.
func mutexKey(name string) string { return fmt.Sprintf("mutex:%s", name) }

var renew = redis.NewScript(`return redis.call('pexpire', KEYS[1], ARGV[1])`) // want "Lua line 1: PEXPIRE of KEYS\\[1\\] \\(lock key `mutexKey\\(name\\)`\\) with no owner check"

func watchdog(ctx context.Context, rdb *redis.Client, name string, ttl time.Duration) {
	for range time.Tick(ttl / 3) {
		renew.Run(ctx, rdb, []string{mutexKey(name)}, ttl.Milliseconds())
	}
}

// redis.pcall, upper and lower case, through a Lua local.
var drop = redis.NewScript( /* want "Lua line 3: UNLINK of KEYS\\[1\\] \\(lock key `l\\.key`\\) with no owner check" */ `
local k = KEYS[1]
return redis.pcall('Unlink', k)
`)

type Lock struct {
	rdb *redis.Client
	key string
}

func (l *Lock) Unlock(ctx context.Context) error {
	return drop.Run(ctx, l.rdb, []string{l.key}).Err()
}

// The Go keys are unknown, but the Lua local names a lock.
const extendLua = /* want "Lua line 3: EXPIRE of KEYS\\[1\\] \\(lock key `lock_key`\\) with no owner check" */ `local lock_key = KEYS[1]
local ttl = ARGV[1]
return redis.call("EXPIRE", lock_key, ttl)`

func extend(ctx context.Context, rdb *redis.Client, keys []string) error {
	return rdb.Eval(ctx, extendLua, keys, 30).Err()
}

// The script deletes the key and then acquires it: it steals whoever's
// lock is there.
const stealLua = /* want `Lua line 1: DEL of KEYS\[1\] \(acquired with SET on Lua line 2\)` */ `redis.call('DEL', KEYS[1])
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`

func steal(ctx context.Context, rdb *redis.Client, job, token string) error {
	return rdb.Eval(ctx, stealLua, []string{"jobs:" + job}, token, 30000).Err()
}

// A GET compared with a constant is no owner check.
const stateLua = `if redis.call('GET', KEYS[1]) == 'held' then return redis.call('DEL', KEYS[1]) end return 0` // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `\"lock:feed\"`\\) with no owner check"

func clearState(ctx context.Context, rdb *redis.Client) error {
	return rdb.Eval(ctx, stateLua, []string{"lock:feed"}).Err()
}

// An embedded script: reported at the variable, with the file's line.
//
//go:embed scripts/unlock.lua
var unlockLua string // want "scripts/unlock\\.lua:2: DEL of KEYS\\[1\\] \\(lock key `\"leader:\" \\+ group`\\) with no owner check"

var unlockFile = redis.NewScript(unlockLua)

func resign(ctx context.Context, rdb *redis.Client, group string) error {
	return unlockFile.Run(ctx, rdb, []string{"leader:" + group}).Err()
}

// An embedded []byte, converted where the script is made.
//
//go:embed scripts/unlock.lua
var unlockBytes []byte // want "scripts/unlock\\.lua:2: DEL of KEYS\\[1\\] \\(lock key `\"leader:\" \\+ group`\\) with no owner check"

var unlockFromBytes = redis.NewScript(string(unlockBytes))

func resignBytes(ctx context.Context, rdb *redis.Client, group string) error {
	return unlockFromBytes.Run(ctx, rdb, []string{"leader:" + group}).Err()
}

// Concatenated constants.
const (
	keyLocal  = "local key = KEYS[1]\n"
	deleteKey = "return redis.call('DEL', key)"
)

func releaseConcat(ctx context.Context, rdb *redis.Client, job string) error {
	return rdb.Eval(ctx, keyLocal+deleteKey, []string{"lock:" + job}).Err() // want "Lua line 2: DEL of KEYS\\[1\\] \\(lock key `\"lock:\" \\+ job`\\) with no owner check"
}

// Two keys deleted; only the first is a lock.
func releaseBoth(ctx context.Context, rdb *redis.Client, id string) error {
	return rdb.Eval(ctx, `return redis.call('DEL', KEYS[1], KEYS[2])`, []string{"lock:" + id, "cache:" + id}).Err() // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `\"lock:\" \\+ id`\\) with no owner check"
}

// The owner check reads another key.
const wrongKeyLua = `if redis.call('GET', KEYS[2]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0` // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `\"lock:\" \\+ id`\\) with no owner check"

func wrongKey(ctx context.Context, rdb *redis.Client, id string) error {
	return rdb.Eval(ctx, wrongKeyLua, []string{"lock:" + id, "owner:" + id}).Err()
}

// A script held in a struct field, one script with two findings.
type Lease struct {
	rdb     *redis.Client
	name    string
	release *redis.Script
}

func NewLease(rdb *redis.Client, name string) *Lease {
	return &Lease{rdb: rdb, name: name, release: redis.NewScript(`redis.call('PEXPIREAT', KEYS[1], 0) redis.call('UNLINK', KEYS[1]) return 1`)} // want "Lua line 1: PEXPIREAT of KEYS\\[1\\] \\(lock key `\"lease:\" \\+ l\\.name`\\) with no owner check" `Lua line 1: UNLINK of KEYS\[1\]`
}

func (l *Lease) Drop(ctx context.Context) error {
	return l.release.Run(ctx, l.rdb, []string{"lease:" + l.name}).Err()
}

// A script in a local variable, text in another.
func releaseLocal(ctx context.Context, rdb *redis.Client, id string) error {
	src := "return redis.call('DEL', KEYS[1])" // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `\"semaphore:\" \\+ id`\\) with no owner check"
	s := redis.NewScript(src)
	return s.Run(ctx, rdb, []string{"semaphore:" + id}).Err()
}

// A reentrant hash lock that decrements and deletes without HEXISTS.
const reentrantLua = /* want "Lua line 3: DEL of KEYS\\[1\\] \\(lock key `\"reentrant-lock:\" \\+ name`\\) with no owner check" */ `local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n > 0 then return 0 end
return redis.call('DEL', KEYS[1])`

func reentrantUnlock(ctx context.Context, rdb *redis.Client, name, owner string) error {
	return rdb.Eval(ctx, reentrantLua, []string{"reentrant-lock:" + name}, owner).Err()
}

// Near miss: the compare-and-delete of the lessons.
const releaseLua = `if redis.call("get", KEYS[1]) == ARGV[1] then
  return redis.call("del", KEYS[1])
else
  return 0
end`

func safeRelease(ctx context.Context, rdb *redis.Client, job, token string) error {
	return rdb.Eval(ctx, releaseLua, []string{"lock:" + job}, token).Err()
}

// Near miss: the check written as an early return, and through locals.
var earlyReturn = redis.NewScript(`if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`)

var viaLocals = redis.NewScript(`local key, token = KEYS[1], ARGV[1]
local holder = redis.call('GET', key)
if holder == token then return redis.call('DEL', key) end
return 0`)

func safeRenewAndRelease(ctx context.Context, rdb *redis.Client, job, token string) {
	earlyReturn.Run(ctx, rdb, []string{"lock:" + job}, token, 30000)
	viaLocals.Run(ctx, rdb, []string{"lock:" + job}, token)
}

// Near miss: SETNX then EXPIRE in one script is one atomic step, and so
// is the acquire that issues a fence.
const acquireLua = `if redis.call('SETNX', KEYS[1], ARGV[1]) == 1 then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`

const fencedLua = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end return 0`

func acquire(ctx context.Context, rdb *redis.Client, job, token string) {
	rdb.Eval(ctx, acquireLua, []string{"lock:" + job}, token, 30)
	rdb.Eval(ctx, fencedLua, []string{"lock:{" + job + "}", "fence:{" + job + "}"}, token, 30000)
}

// Near miss: keys that are no locks.
func invalidate(ctx context.Context, rdb *redis.Client, id, ip string) {
	rdb.Eval(ctx, `return redis.call('DEL', KEYS[1])`, []string{"cache:user:" + id})
	rdb.Eval(ctx, `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('EXPIRE', KEYS[1], 60) end return n`, []string{"rate:" + ip})
}

// Near miss: a reentrant hash lock that checks the owner with HEXISTS.
const reentrantSafeLua = `if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return nil end
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 0 end
redis.call('DEL', KEYS[1])
return 1`

func reentrantSafe(ctx context.Context, rdb *redis.Client, name, owner string) error {
	return rdb.Eval(ctx, reentrantSafeLua, []string{"reentrant-lock:" + name}, owner, 30000).Err()
}

// Near miss: an embedded compare-and-delete.
//
//go:embed scripts/release.lua
var releaseFile string

var releaseScript = redis.NewScript(releaseFile)

func releaseEmbedded(ctx context.Context, rdb *redis.Client, group, token string) error {
	return releaseScript.Run(ctx, rdb, []string{"leader:" + group}, token).Err()
}

// Near miss: text built at run time, and EVALSHA, which sends no text.
func dynamic(ctx context.Context, rdb *redis.Client, cmd, job, sha string) {
	rdb.Eval(ctx, fmt.Sprintf("return redis.call('%s', KEYS[1])", cmd), []string{"lock:" + job})
	rdb.EvalSha(ctx, sha, []string{"lock:" + job})
}

// Near miss: a key index that is not constant, a key derived from KEYS[1],
// and redis.call in comments and strings.
const otherKeysLua = `-- redis.call('DEL', KEYS[1]) is the bug this script avoids
--[[ redis.call('DEL', KEYS[1]) ]]
local note = "redis.call('DEL', KEYS[1])"
for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
redis.call('DEL', KEYS[1] .. ':waiters')
return note`

func cleanup(ctx context.Context, rdb *redis.Client, job string) error {
	return rdb.Eval(ctx, otherKeysLua, []string{"lock:" + job, "lock:" + job + ":a"}).Err()
}

// Near miss: suppressed with a reason.
//
//locklint:ignore unguardedscript admin tool that force-clears a stuck lock after paging on-call
const adminClearLua = `return redis.call('DEL', KEYS[1])`

func adminClear(ctx context.Context, rdb *redis.Client, job string) error {
	return rdb.Eval(ctx, adminClearLua, []string{"lock:" + job}).Err()
}

// The owner read is the first element of an MGET of the lock and its
// queue: checked.
var handOff = redis.NewScript(`local r = redis.call("MGET", KEYS[1], KEYS[2])
local held, queue = r[1], r[2]
if held ~= ARGV[1] then return 0 end
return redis.call("DEL", KEYS[1])`)

func handOffRun(ctx context.Context, rdb *redis.Client, job, token string) error {
	return handOff.Run(ctx, rdb, []string{"lock:" + job, "lock:" + job + ":queue"}, token).Err()
}

// The compared element is the queue's, not the lock's.
var wrongElement = redis.NewScript(`local r = redis.call("MGET", KEYS[2], KEYS[1]) local queue, held = r[1], r[2] if queue ~= ARGV[1] then return 0 end return redis.call("DEL", KEYS[1])`) // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `\"lock:\" \\+ job`\\) with no owner check"

func wrongElementRun(ctx context.Context, rdb *redis.Client, job, token string) error {
	return wrongElement.Run(ctx, rdb, []string{"lock:" + job, "lock:" + job + ":queue"}, token).Err()
}

// A script that empties a lock's waiter queue deletes the queue, not the
// lock: the key ends in "queue".
var dropQueue = redis.NewScript(`if redis.call("LLEN", KEYS[1]) == 0 then return redis.call("DEL", KEYS[1]) end return 0`)

func dropQueueRun(ctx context.Context, rdb *redis.Client, job string) error {
	return dropQueue.Run(ctx, rdb, []string{"lock:{" + job + "}:queue"}, nil).Err()
}

// "queue:lock" is the lock on a queue: the last word is the lock word.
var dropQueueLock = redis.NewScript(`return redis.call("DEL", KEYS[1])`) // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `\"queue:lock\"`\\) with no owner check"

func dropQueueLockRun(ctx context.Context, rdb *redis.Client) error {
	return dropQueueLock.Run(ctx, rdb, []string{"queue:lock"}).Err()
}
