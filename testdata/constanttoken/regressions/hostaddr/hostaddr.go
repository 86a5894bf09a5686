// Package hostaddr pins a task lock whose owner is the host's first IPv4
// address, read off its interfaces, joined with the goroutine id: two
// processes on one host, or two hosts that fall back to the same
// placeholder address, store the same owner and pass each other's owner
// checks. The near misses are a leader lease held under the address and
// the pid, which name one live process, and a UUID drawn per acquisition
// behind the address, returned with an error by a helper.
package hostaddr

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// goroutineID parses "goroutine 18 [running]:".
func goroutineID() (int64, error) {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	idField := strings.Fields(strings.TrimPrefix(string(buf[:n]), "goroutine"))[0]
	id, err := strconv.Atoi(idField)
	if err != nil {
		return -1, err
	}
	return int64(id), nil
}

// newOwner draws 16 bytes per call.
func newOwner() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// hostIPv4 is the first non-loopback IPv4 address of an interface that
// is up.
func hostIPv4() string {
	ifaces, err := net.Interfaces()
	if err != nil {
		return "0.0.0.0"
	}
	for _, iface := range ifaces {
		if iface.Flags&net.FlagUp == 0 || iface.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := iface.Addrs()
		if err != nil {
			return "0.0.0.0"
		}
		for _, addr := range addrs {
			if ipnet, ok := addr.(*net.IPNet); ok && ipnet.IP.To4() != nil {
				return ipnet.IP.String()
			}
		}
	}
	return "0.0.0.0"
}

type Locker struct{ rdb *redis.Client }

// Must report: the address and the goroutine id repeat across processes.
func (l *Locker) LockTask(ctx context.Context, key string, ttl time.Duration) (string, bool) {
	gid, _ := goroutineID()
	value := hostIPv4() + ":" + strconv.Itoa(int(gid))
	ok := l.rdb.SetNX(ctx, key, value, ttl).Val() // want "lock key `key` \\(key of `\\(\\*Locker\\)\\.LockTask`\\) acquired with a non-unique token \\(the goroutine id"
	return value, ok
}

func (l *Locker) Unlock(ctx context.Context, key, value string) error {
	return unlock.Run(ctx, l.rdb, []string{key}, value).Err()
}

// Elector holds a leader lease under the address and the pid, made
// once where it is constructed.
type Elector struct {
	rdb  *redis.Client
	node string
}

func NewElector(rdb *redis.Client) *Elector {
	return &Elector{rdb: rdb, node: hostIPv4() + ":" + strconv.Itoa(os.Getpid())}
}

// Near miss (silent): the address and the pid name one live process.
func (e *Elector) Lead(ctx context.Context) bool {
	return e.rdb.SetNX(ctx, "cron:leader", e.node, 10*time.Second).Val()
}

// Near miss (silent): the address only labels a random owner.
func (l *Locker) LockOnce(ctx context.Context, key string) (string, bool) {
	owner, err := newOwner()
	if err != nil {
		return "", false
	}
	value := hostIPv4() + ":" + owner
	ok := l.rdb.SetNX(ctx, key, value, time.Minute).Val()
	return value, ok
}
