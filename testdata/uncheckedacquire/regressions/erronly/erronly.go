// Package erronly pins a quorum lock's per-node acquire that reads only
// the script's error: the script answers 0, with no error, when another
// holds the key, so every node counts as taken. The near miss reads the
// reply.
package erronly

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var acquire = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v == false then
	redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
	return 1
elseif v == ARGV[1] then
	redis.call('PEXPIRE', KEYS[1], ARGV[2])
	return 1
end
return 0`)

type Node struct{ client *redis.Client }

type Quorum struct {
	key     string
	value   string
	timeout time.Duration
}

// Must report: a held key's 0 is taken for a win.
func (q *Quorum) acquireOnNode(ctx context.Context, n Node) bool {
	err := acquire.Run(ctx, n.client, []string{"redlock:" + q.key}, q.value, q.timeout.Milliseconds()).Err() // want "`acquireOnNode` returns whether the error of a Lua script is nil, and a held lock gives 0 and no error"
	return err == nil
}

// Near miss (silent): the reply decides.
func (q *Quorum) acquireChecked(ctx context.Context, n Node) bool {
	got, err := acquire.Run(ctx, n.client, []string{"redlock:" + q.key}, q.value, q.timeout.Milliseconds()).Int()
	return err == nil && got == 1
}
