package goredis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	mrand "math/rand"
	mrand2 "math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

// A literal: every holder stores 1.
func literalOne(ctx context.Context, rdb *redis.Client) bool {
	return rdb.SetNX(ctx, "lock:feed", 1, ttl).Val() // want "lock key `\"lock:feed\"` acquired with a non-unique token \\(the constant `1`\\); use `fix\\.Obtain` or a crypto/rand token"
}

// SET NX through SetArgs, with a string literal.
func setArgsLocked(ctx context.Context, rdb redis.UniversalClient, job string) error {
	return rdb.SetArgs(ctx, "jobs:"+job+":lock", "locked", redis.SetArgs{Mode: "NX", TTL: ttl}).Err() // want "lock key `\"jobs:\" \\+ job \\+ \":lock\"` acquired with a non-unique token \\(the constant `\"locked\"`\\)"
}

// true is a constant too.
func boolTrue(ctx context.Context, rdb *redis.Client) (bool, error) {
	return rdb.SetNX(ctx, "mutex:billing", true, ttl).Result() // want "lock key `\"mutex:billing\"` acquired with a non-unique token \\(the constant `true`\\)"
}

// A named constant.
const lockValue = "held"

func namedConst(ctx context.Context, rdb *redis.Client, name string) bool {
	return rdb.SetNX(ctx, fmt.Sprintf("lock:%s", name), lockValue, ttl).Val() // want "lock key `fmt\\.Sprintf\\(\"lock:%s\", name\\)` acquired with a non-unique token \\(the constant `lockValue`\\)"
}

// A package-level variable is made once per process, however random.
var instanceToken = uuid.NewString()

func packageVar(ctx context.Context, rdb *redis.Client) bool {
	return rdb.SetNX(ctx, "lock:reindex", instanceToken, ttl).Val() // want "lock key `\"lock:reindex\"` acquired with a non-unique token \\(package-level variable `instanceToken`, set once per process\\)"
}

// The host name alone.
func hostname(ctx context.Context, rdb *redis.Client) bool {
	host, _ := os.Hostname()
	return rdb.SetNX(ctx, "lock:compaction", host, ttl).Val() // want "lock key `\"lock:compaction\"` acquired with a non-unique token \\(`os\\.Hostname`\\)"
}

// Host name and pid, formatted together: still one value per process.
func hostPid(ctx context.Context, rdb *redis.Client) bool {
	host, err := os.Hostname()
	if err != nil {
		return false
	}
	owner := fmt.Sprintf("%s-%d", host, os.Getpid())
	return rdb.SetNX(ctx, "lock:compaction", owner, ttl).Val() // want "lock key `\"lock:compaction\"` acquired with a non-unique token \\(`os\\.Getpid`\\)"
}

// An environment variable names the pod, not the acquisition.
func podName(ctx context.Context, rdb redis.UniversalClient) bool {
	return rdb.SetNX(ctx, "leader:scheduler", os.Getenv("POD_NAME"), ttl).Val() // want "lock key `\"leader:scheduler\"` acquired with a non-unique token \\(`os\\.Getenv`\\)"
}

// math/rand, v1 and v2, drawn per acquisition from the global sources
// the runtime seeds per process (Go 1.20 on): as unique as an owner
// check needs.
func mathRand(ctx context.Context, rdb *redis.Client) bool {
	return rdb.SetNX(ctx, "lock:payout", strconv.Itoa(mrand.Int()), ttl).Val()
}

func mathRandV2(ctx context.Context, rdb *redis.Client) bool {
	token := strconv.FormatUint(mrand2.Uint64(), 16)
	return rdb.SetNX(ctx, "lock:payout", token, ttl).Val()
}

// A buffer filled by math/rand and hex-encoded: sixteen draws.
func mathRandBuffer(ctx context.Context, rdb *redis.Client) bool {
	b := make([]byte, 16)
	mrand.Read(b)
	return rdb.SetNX(ctx, "lock:payout", hex.EncodeToString(b), ttl).Val()
}

// One number of a small range: two holders draw it alike.
func mathRandSmall(ctx context.Context, rdb *redis.Client) bool {
	return rdb.SetNX(ctx, "lock:payout", strconv.Itoa(mrand.Intn(10000)), ttl).Val() // want "lock key `\"lock:payout\"` acquired with a non-unique token \\(math/rand\\)"
}

// A source seeded from the clock: processes started in one tick draw
// alike.
func mathRandClockSeeded(ctx context.Context, rdb *redis.Client) bool {
	r := mrand.New(mrand.NewSource(time.Now().UnixNano()))
	return rdb.SetNX(ctx, "lock:payout", strconv.FormatInt(r.Int63(), 10), ttl).Val() // want "lock key `\"lock:payout\"` acquired with a non-unique token \\(math/rand\\)"
}

// Drawn once per process, kept in a package-level variable: every
// acquisition of the process shares it.
var worker = strconv.FormatUint(mrand2.Uint64(), 16)

func mathRandOnce(ctx context.Context, rdb *redis.Client) bool {
	return rdb.SetNX(ctx, "lock:payout", worker, ttl).Val() // want "lock key `\"lock:payout\"` acquired with a non-unique token \\(package-level variable `worker`, math/rand/v2\\)"
}

// The clock: two acquisitions in one tick collide.
func unixNano(ctx context.Context, rdb *redis.Client) bool {
	token := strconv.FormatInt(time.Now().UnixNano(), 10)
	return rdb.SetNX(ctx, "lock:export", token, ttl).Val() // want "lock key `\"lock:export\"` acquired with a non-unique token \\(`time\\.Now`\\)"
}

func formattedTime(ctx context.Context, rdb *redis.Client) bool {
	host, _ := os.Hostname()
	return rdb.SetNX(ctx, "lock:export", host+"@"+time.Now().Format(time.RFC3339Nano), ttl).Val() // want "lock key `\"lock:export\"` acquired with a non-unique token \\(`time\\.Now`\\)"
}

// A helper of the package that formats the process identity.
func ownerID() string {
	h, _ := os.Hostname()
	return h + ":" + strconv.Itoa(os.Getpid())
}

func viaHelper(ctx context.Context, rdb *redis.Client, name string) bool {
	return rdb.SetNX(ctx, "lock:"+name, ownerID(), ttl).Val() // want "lock key `\"lock:\" \\+ name` acquired with a non-unique token \\(`os\\.Getpid`, returned by `ownerID`\\)"
}

// Queued in a transaction: the value is still a constant.
func pipelined(ctx context.Context, rdb *redis.Client) error {
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, "lock:batch", "1", ttl) // want "lock key `\"lock:batch\"` acquired with a non-unique token \\(the constant `\"1\"`\\)"
		pipe.Incr(ctx, "batch:runs")
		return nil
	})
	return err
}

// A locker made once per service: its token is set by the constructor and
// every Lock, whatever the name, stores it.
type Locker struct {
	rdb   *redis.Client
	owner string
}

func NewLocker(rdb *redis.Client) *Locker {
	return &Locker{rdb: rdb, owner: uuid.NewString()}
}

func (l *Locker) Lock(ctx context.Context, name string) (bool, error) {
	return l.rdb.SetNX(ctx, "locks:"+name, l.owner, ttl).Result() // want "lock key `\"locks:\" \\+ name` acquired with a non-unique token \\(field `owner`, set once in `NewLocker`\\)"
}

// An elector's identity drawn once is its leader lease's token: the process holds it.
type Elector struct {
	rdb redis.UniversalClient
	id  string
}

func NewElector(rdb redis.UniversalClient) *Elector {
	e := &Elector{rdb: rdb}
	e.id = rand.Text()
	return e
}

func (e *Elector) Campaign(ctx context.Context) bool {
	return e.rdb.SetNX(ctx, "service:leader", e.id, ttl).Val()
}

// A worker loop that acquires, works and releases, round after round,
// with one token made before the loop.
var unlock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func workerLoop(ctx context.Context, rdb *redis.Client, work func()) {
	token := rand.Text()
	for ctx.Err() == nil {
		if rdb.SetNX(ctx, "lock:sweeper", token, ttl).Val() { // want "lock key `\"lock:sweeper\"` acquired again with token `token` after the release on line 181"
			work()
			unlock.Run(ctx, rdb, []string{"lock:sweeper"}, token)
		}
		time.Sleep(time.Second)
	}
}

// The same rounds through a release helper of the package.
func release(ctx context.Context, rdb *redis.Client, key, token string) {
	unlock.Run(ctx, rdb, []string{key}, token)
}

func tickLoop(ctx context.Context, rdb *redis.Client, jobs <-chan string) {
	token := uuid.NewString()
	for job := range jobs {
		key := "lock:job:" + job
		ok, err := rdb.SetNX(ctx, key, token, ttl).Result() // want "lock key `key` acquired again with token `token` after the release on line 200"
		if err != nil || !ok {
			continue
		}
		release(ctx, rdb, key, token)
	}
}

// Two acquisitions in a row, one token.
func twice(ctx context.Context, rdb *redis.Client) {
	token := rand.Text()
	if rdb.SetNX(ctx, "lock:a", token, ttl).Val() {
		rdb.Del(ctx, "lock:a")
	}
	if rdb.SetNX(ctx, "lock:a", token, ttl).Val() { // want "lock key `\"lock:a\"` acquired again with token `token` after the release on line 208"
		rdb.Del(ctx, "lock:a")
	}
}

// Near misses.

// crypto/rand, per call.
func fresh(ctx context.Context, rdb *redis.Client) bool {
	return rdb.SetNX(ctx, "lock:feed", rand.Text(), ttl).Val()
}

// A random UUID, per call.
func freshUUID(ctx context.Context, rdb *redis.Client) bool {
	token := uuid.NewString()
	return rdb.SetNX(ctx, "lock:feed", token, ttl).Val()
}

func freshUUIDMust(ctx context.Context, rdb *redis.Client) bool {
	return rdb.SetNX(ctx, "lock:feed", uuid.Must(uuid.NewRandom()).String(), ttl).Val()
}

// The host name with a fresh part is unique.
func hostAndUUID(ctx context.Context, rdb *redis.Client) bool {
	host, _ := os.Hostname()
	return rdb.SetNX(ctx, "lock:feed", fmt.Sprintf("%s-%s", host, uuid.NewString()), ttl).Val()
}

// A token passed in by the caller: its origin is unknown.
func param(ctx context.Context, rdb *redis.Client, token string) bool {
	return rdb.SetNX(ctx, "lock:feed", token, ttl).Val()
}

// A helper whose body draws from crypto/rand.
func newToken() string {
	b := make([]byte, 16)
	if _, err := io.ReadFull(rand.Reader, b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func viaFreshHelper(ctx context.Context, rdb *redis.Client) bool {
	return rdb.SetNX(ctx, "lock:feed", newToken(), ttl).Val()
}

// A buffer filled by crypto/rand.
func cryptoBuffer(ctx context.Context, rdb *redis.Client) bool {
	var b [16]byte
	rand.Read(b[:])
	return rdb.SetNX(ctx, "lock:feed", hex.EncodeToString(b[:]), ttl).Val()
}

// One token per Lock call, reused by the retries of that acquisition.
func retries(ctx context.Context, rdb *redis.Client) error {
	token := rand.Text()
	for attempt := 0; attempt < 5; attempt++ {
		if rdb.SetNX(ctx, "lock:feed", token, ttl).Val() {
			defer unlock.Run(ctx, rdb, []string{"lock:feed"}, token)
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return context.DeadlineExceeded
}

// The retry loop ends once acquired; the release comes after it.
func retriesThenRelease(ctx context.Context, rdb *redis.Client, work func()) {
	token := rand.Text()
	for !rdb.SetNX(ctx, "lock:feed", token, ttl).Val() {
		time.Sleep(50 * time.Millisecond)
	}
	work()
	unlock.Run(ctx, rdb, []string{"lock:feed"}, token)
}

// The release inside the retry loop is followed by a return.
func releaseThenReturn(ctx context.Context, rdb *redis.Client, work func() error) error {
	token := rand.Text()
	for attempt := 0; attempt < 5; attempt++ {
		if rdb.SetNX(ctx, "lock:feed", token, ttl).Val() {
			err := work()
			unlock.Run(ctx, rdb, []string{"lock:feed"}, token)
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return context.DeadlineExceeded
}

// A cleanup after an acquire whose reply was lost, then a retry: one
// acquisition.
func cleanupOnError(ctx context.Context, rdb *redis.Client) bool {
	token := rand.Text()
	for attempt := 0; attempt < 3; attempt++ {
		ok, err := rdb.SetNX(ctx, "lock:feed", token, ttl).Result()
		if err != nil {
			unlock.Run(ctx, rdb, []string{"lock:feed"}, token)
			continue
		}
		if ok {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// A worker loop that makes a token per round.
func freshPerRound(ctx context.Context, rdb *redis.Client, work func()) {
	for ctx.Err() == nil {
		token := rand.Text()
		if rdb.SetNX(ctx, "lock:sweeper", token, ttl).Val() {
			work()
			unlock.Run(ctx, rdb, []string{"lock:sweeper"}, token)
		}
		time.Sleep(time.Second)
	}
}

// One token for a set of locks held together is per acquisition.
func multiLock(ctx context.Context, rdb *redis.Client, skus []string) {
	token := rand.Text()
	for _, sku := range skus {
		rdb.SetNX(ctx, "lock:sku:"+sku, token, ttl)
	}
}

// A handle for one lock: key and token are its fields, made together.
type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

func NewMutex(rdb *redis.Client, name string) *Mutex {
	return &Mutex{rdb: rdb, key: "mutex:" + name, token: uuid.NewString()}
}

func (m *Mutex) Lock(ctx context.Context) bool {
	return m.rdb.SetNX(ctx, m.key, m.token, ttl).Val()
}

// A handle made per acquisition, in the acquiring function.
type Handle struct {
	key, token string
}

func tryLock(ctx context.Context, rdb *redis.Client, name string) (*Handle, bool) {
	h := &Handle{key: "lock:" + name, token: rand.Text()}
	return h, rdb.SetNX(ctx, h.key, h.token, ttl).Val()
}

// A locker that draws a new token in each Lock.
type Renewer struct {
	rdb   *redis.Client
	token string
}

func (r *Renewer) Lock(ctx context.Context, name string) bool {
	r.token = uuid.NewString()
	return r.rdb.SetNX(ctx, "lock:"+name, r.token, ttl).Val()
}

// A field nobody in this package sets.
type Config struct{ Token string }

func fromConfig(ctx context.Context, rdb *redis.Client, cfg Config) bool {
	return rdb.SetNX(ctx, "lock:feed", cfg.Token, ttl).Val()
}

// A package-level variable assigned per acquisition is not made once.
var current string

func globalPerCall(ctx context.Context, rdb *redis.Client) bool {
	current = uuid.NewString()
	return rdb.SetNX(ctx, "lock:feed", current, ttl).Val()
}

// A retry helper calls the closure: retries of one acquisition.
func retry(n int, op func() bool) bool {
	for range n {
		if op() {
			return true
		}
	}
	return false
}

func closureRetry(ctx context.Context, rdb *redis.Client) bool {
	token := rand.Text()
	return retry(3, func() bool { return rdb.SetNX(ctx, "lock:feed", token, ttl).Val() })
}

// A constant value on a key that is not a lock: a deduplication marker.
func processed(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, "processed:"+id, 1, 24*time.Hour).Val()
}

// Suppressed with a reason.
func suppressed(ctx context.Context, rdb *redis.Client) bool {
	//locklint:ignore constanttoken the key only throttles a nightly report; nobody releases it
	return rdb.SetNX(ctx, "lock:nightly", 1, time.Hour).Val()
}
