package redigo

import (
	"crypto/rand"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/gomodule/redigo/redis"
)

// SET NX with a literal.
func literal(conn redis.Conn, job string) (bool, error) {
	reply, err := redis.String(conn.Do("SET", "lock:"+job, "1", "NX", "PX", 30000)) // want "lock key `\"lock:\" \\+ job` acquired with a non-unique token \\(the constant `\"1\"`\\); use `lock\\.Obtain` via `fixredigo\\.Conn` or a crypto/rand token$"
	return reply == "OK", err
}

// SETNX with the process id.
func pid(conn redis.Conn) (int, error) {
	return redis.Int(conn.Do("SETNX", "mutex:reports", os.Getpid())) // want "lock key `\"mutex:reports\"` acquired with a non-unique token \\(`os\\.Getpid`\\)"
}

// The clock, through DoContext.
func clock(conn redis.ConnWithContext) error {
	_, err := redis.DoContext(conn, nil, "SET", "lock:export", strconv.FormatInt(time.Now().UnixNano(), 10), "NX", "EX", 30) // want "lock key `\"lock:export\"` acquired with a non-unique token \\(`time\\.Now`\\)"
	return err
}

// A worker identity made once, in the constructor, used for every key.
type Worker struct {
	pool *redis.Pool
	id   string
}

func NewWorker(pool *redis.Pool) *Worker {
	host, _ := os.Hostname()
	return &Worker{pool: pool, id: fmt.Sprintf("%s/%s", host, rand.Text())}
}

func (w *Worker) Claim(task string) (bool, error) {
	conn := w.pool.Get()
	defer conn.Close()
	reply, err := redis.String(conn.Do("SET", "task:"+task+":lock", w.id, "NX", "EX", 60)) // want "lock key `\"task:\" \\+ task \\+ \":lock\"` acquired with a non-unique token \\(field `id`, set once in `NewWorker`\\)"
	return reply == "OK", err
}

// Rounds of acquire and release with one token.
var unlock = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func rounds(conn redis.Conn, n int) {
	token := rand.Text()
	for i := 0; i < n; i++ {
		if _, err := conn.Do("SET", "lock:rounds", token, "NX", "PX", 1000); err != nil { // want "lock key `\"lock:rounds\"` acquired again with token `token` after the release on line 57"
			continue
		}
		unlock.Do(conn, "lock:rounds", token)
	}
}

// Near misses.

// A handle for one lock, the legacy Mutex shape.
type Mutex struct {
	pool  *redis.Pool
	name  string
	token string
}

func NewMutex(pool *redis.Pool, name string) *Mutex {
	return &Mutex{pool: pool, name: "lock:" + name, token: rand.Text()}
}

func (m *Mutex) Lock() (bool, error) {
	conn := m.pool.Get()
	defer conn.Close()
	reply, err := redis.String(conn.Do("SET", m.name, m.token, "NX", "EX", 30))
	return reply == "OK", err
}

// Fresh per call.
func fresh(conn redis.Conn) error {
	_, err := conn.Do("SET", "lock:export", rand.Text(), "NX", "EX", 30)
	return err
}

// A constant on a key that is not a lock.
func marker(conn redis.Conn, id string) error {
	_, err := conn.Do("SETNX", "seen:"+id, 1)
	return err
}

// Options the model cannot read: not an acquire it knows of.
func spread(conn redis.Conn, args []any) error {
	_, err := conn.Do("SET", args...)
	return err
}

const unlockExport = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

// The export lock is given back with a compare of its value: a lock,
// not a marker, so its value matters.
func releaseExport(conn redis.Conn, token string) error {
	_, err := conn.Do("EVAL", unlockExport, 1, "lock:export", token)
	return err
}
