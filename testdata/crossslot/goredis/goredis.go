package goredis

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// The acquire issues a fence number in the same script, as the lesson on
// fencing tokens says to.
const acquireLua = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0`

var acquire = redis.NewScript(acquireLua)

// Concatenated keys with no hash tag, on a Cluster client.
func obtainCluster(ctx context.Context, rdb *redis.ClusterClient, id, token string) (int64, error) {
	return acquire.Run(ctx, rdb, []string{"lock:" + id, "fence:" + id}, token, 30000).Int64() // want "`\"lock:\" \\+ id` and `\"fence:\" \\+ id` may hash to different Cluster slots"
}

// Sprintf keys through a UniversalClient.
func obtainUniversal(ctx context.Context, rdb redis.UniversalClient, id, token string) error {
	return rdb.Eval(ctx, acquireLua, []string{fmt.Sprintf("lock:%s", id), fmt.Sprintf("fence:%s", id)}, token, 30000).Err() // want "`fmt\\.Sprintf\\(\"lock:%s\", id\\)` and `fmt\\.Sprintf\\(\"fence:%s\", id\\)` may hash to different Cluster slots; share one \\{hash tag\\}, or use `fix\\.WithFencing`"
}

// A plain *redis.Client is no Cluster client, but a lock key and a fence
// key without a common tag break the day the lock moves to the Cluster.
func obtainStandalone(ctx context.Context, rdb *redis.Client, id, token string) error {
	return acquire.Run(ctx, rdb, []string{"lock:" + id, "fence:" + id}, token, 30000).Err() // want "`\"lock:\" \\+ id` and `\"fence:\" \\+ id` may hash to different Cluster slots"
}

// Hash tags around different values.
func differentTags(ctx context.Context, rdb *redis.ClusterClient, order, sku, token string) error {
	return acquire.Run(ctx, rdb, []string{fmt.Sprintf("lock:{%s}", order), fmt.Sprintf("fence:{%s}", sku)}, token, 30000).Err() // want "`fmt\\.Sprintf\\(\"lock:\\{%s\\}\", order\\)` and `fmt\\.Sprintf\\(\"fence:\\{%s\\}\", sku\\)` may hash to different Cluster slots"
}

// One key tagged, the other not: the slot of id is not the slot of
// "fence:"+id.
func oneTagged(ctx context.Context, rdb *redis.ClusterClient, id, token string) error {
	return acquire.Run(ctx, rdb, []string{"lock:{" + id + "}", "fence:" + id}, token, 30000).Err() // want "`\"lock:\\{\" \\+ id \\+ \"\\}\"` and `\"fence:\" \\+ id` may hash to different Cluster slots"
}

// An empty tag does not count: the whole key is hashed.
func emptyTag(ctx context.Context, rdb *redis.ClusterClient, id, token string) error {
	return acquire.Run(ctx, rdb, []string{"lock:{}" + id, "fence:{}" + id}, token, 30000).Err() // want "`\"lock:\\{\\}\" \\+ id` and `\"fence:\\{\\}\" \\+ id` may hash to different Cluster slots"
}

// Keys from helpers, script and client held by a struct, keys slice in a
// local variable.
func lockKey(id string) string  { return "lock:" + id }
func fenceKey(id string) string { return "fence:" + id }

type Locker struct {
	rdb    *redis.ClusterClient
	script *redis.Script
}

func NewLocker(rdb *redis.ClusterClient) *Locker {
	return &Locker{rdb: rdb, script: redis.NewScript(acquireLua)}
}

func (l *Locker) Obtain(ctx context.Context, id, token string) (int64, error) {
	keys := []string{lockKey(id), fenceKey(id)}
	return l.script.Run(ctx, l.rdb, keys, token, 30000).Int64() // want "`lockKey\\(id\\)` and `fenceKey\\(id\\)` may hash to different Cluster slots"
}

// Constant keys without a tag: their slots differ.
func constantKeys(ctx context.Context, rdb *redis.ClusterClient, token string) error {
	return acquire.Run(ctx, rdb, []string{"lock:feed", "fence:feed"}, token, 30000).Err() // want "`\"lock:feed\"` and `\"fence:feed\"` may hash to different Cluster slots"
}

// A Ring sends the script to the first key's shard.
func ring(ctx context.Context, rdb *redis.Ring, user string) error {
	return rdb.Eval(ctx, `redis.call('INCR', KEYS[1]) return redis.call('INCR', KEYS[2])`, []string{"visits:" + user, "visits:total:" + user}).Err() // want "`\"visits:\" \\+ user` and `\"visits:total:\" \\+ user` may be on different Ring shards"
}

// The script INCRs its second key: a fence counter whatever its name.
const issueLua = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end return 0`

func counterByScript(ctx context.Context, rdb *redis.Client, job, token string) error {
	return rdb.Eval(ctx, issueLua, []string{"jobs:lock:" + job, "jobs:epoch:" + job}, token, 1000).Err() // want "`\"jobs:lock:\" \\+ job` and `\"jobs:epoch:\" \\+ job` may hash to different Cluster slots"
}

// EVALSHA sends no script text, but its keys are known.
func evalSha(ctx context.Context, rdb *redis.ClusterClient, sha, a, b string) error {
	return rdb.EvalSha(ctx, sha, []string{"cart:" + a, "cart:" + b}).Err() // want "`\"cart:\" \\+ a` and `\"cart:\" \\+ b` may hash to different Cluster slots"
}

// A read-only script on the Cluster, keys from a struct's constant
// prefixes.
type Feeds struct {
	rdb *redis.ClusterClient
}

const (
	feedPrefix  = "feed:"
	indexPrefix = "feed-index:"
)

func (f *Feeds) Read(ctx context.Context, id string) ([]any, error) {
	return f.rdb.EvalRO(ctx, `return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2])}`, []string{feedPrefix + id, indexPrefix + id}).Slice() // want "`feedPrefix \\+ id` and `indexPrefix \\+ id` may hash to different Cluster slots"
}

// Near miss: the same {tag} in both keys, written with Sprintf.
func sameTagSprintf(ctx context.Context, rdb *redis.ClusterClient, id, token string) error {
	return acquire.Run(ctx, rdb, []string{fmt.Sprintf("lock:{%s}", id), fmt.Sprintf("fence:{%s}", id)}, token, 30000).Err()
}

// Near miss: the same tag in concatenations, with a suffix after it.
func sameTagConcat(ctx context.Context, rdb *redis.ClusterClient, id, token string) error {
	return acquire.Run(ctx, rdb, []string{"lock:{" + id + "}", "lock:{" + id + "}:fence"}, token, 30000).Err()
}

// Near miss: helpers that tag.
func taggedLock(id string) string  { return fmt.Sprintf("lock:{%s}", id) }
func taggedFence(id string) string { return "fence:{" + id + "}" }

func taggedHelpers(ctx context.Context, rdb *redis.ClusterClient, id, token string) error {
	return acquire.Run(ctx, rdb, []string{taggedLock(id), taggedFence(id)}, token, 30000).Err()
}

// Near miss: constant keys with the same tag, as in the fencing lesson.
func constantTags(ctx context.Context, rdb *redis.ClusterClient, token string) error {
	return acquire.Run(ctx, rdb, []string{"atlasmart:ch23:lock:{sku42}:owner", "atlasmart:ch23:lock:{sku42}:fence"}, token, 300).Err()
}

// Near miss: constant keys with no tag that hash to the same slot
// (12800) all the same.
func sameSlotByChance(ctx context.Context, rdb *redis.ClusterClient, token string) error {
	return acquire.Run(ctx, rdb, []string{"lock:feed", "fence:feed:3542"}, token, 30000).Err()
}

// Near miss: the tag as a key of its own: "{feed}" hashes "feed".
func tagAndBareKey(ctx context.Context, rdb *redis.ClusterClient, token string) error {
	return acquire.Run(ctx, rdb, []string{"{feed}:lock", "feed"}, token, 30000).Err()
}

// Near miss: one key.
func oneKey(ctx context.Context, rdb *redis.ClusterClient, id, token string) error {
	return rdb.Eval(ctx, `return redis.call('GET', KEYS[1])`, []string{"lock:" + id}).Err()
}

// Near miss: keys handed in whole by the caller, who may have tagged them.
func keysFromCaller(ctx context.Context, rdb *redis.ClusterClient, lock, fence, token string) error {
	return acquire.Run(ctx, rdb, []string{lock, fence}, token, 30000).Err()
}

// Near miss: a keys slice built at run time.
func builtKeys(ctx context.Context, rdb *redis.ClusterClient, id, token string, fenced bool) error {
	keys := []string{"lock:" + id}
	if fenced {
		keys = append(keys, "fence:"+id)
	}
	return acquire.Run(ctx, rdb, keys, token, 30000).Err()
}

// Near miss: two keys on a standalone client that are no lock and fence.
func rateLimit(ctx context.Context, rdb *redis.Client, ip string) error {
	return rdb.Eval(ctx, `redis.call('INCR', KEYS[1]) return redis.call('INCR', KEYS[2])`, []string{"rate:" + ip, "rate:burst:" + ip}).Err()
}

// Near miss: struct fields stored once, from the same value, with a tag.
type TaggedLock struct {
	rdb      *redis.ClusterClient
	key      string
	fenceKey string
}

func NewTaggedLock(rdb *redis.ClusterClient, name string) *TaggedLock {
	return &TaggedLock{rdb: rdb, key: "lock:{" + name + "}", fenceKey: "fence:{" + name + "}"}
}

func (l *TaggedLock) Obtain(ctx context.Context, token string, ttl time.Duration) error {
	return acquire.Run(ctx, l.rdb, []string{l.key, l.fenceKey}, token, ttl.Milliseconds()).Err()
}

// Near miss: the tag built once in a local variable; the second id is the
// same value under another name.
func tagVariable(ctx context.Context, rdb *redis.ClusterClient, id, token string) error {
	tag := "{" + id + "}"
	same := id
	if err := acquire.Run(ctx, rdb, []string{"lock:" + tag, "fence:" + tag}, token, 30000).Err(); err != nil {
		return err
	}
	return acquire.Run(ctx, rdb, []string{fmt.Sprintf("lock:{%s}", id), fmt.Sprintf("fence:{%s}", same)}, token, 30000).Err()
}

// Near miss: %d and %v print an integer the same way.
func intTags(ctx context.Context, rdb *redis.ClusterClient, shard int, token string) error {
	return acquire.Run(ctx, rdb, []string{fmt.Sprintf("lock:{%d}", shard), fmt.Sprintf("fence:{%v}", shard)}, token, 30000).Err()
}

// Near miss: suppressed with a reason.
func suppressed(ctx context.Context, rdb *redis.ClusterClient, id, token string) error {
	//locklint:ignore crossslot this deployment pins both prefixes to one node with a custom proxy
	return acquire.Run(ctx, rdb, []string{"lock:" + id, "fence:" + id}, token, 30000).Err()
}
