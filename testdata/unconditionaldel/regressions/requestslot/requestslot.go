// Package requestslot pins per-request concurrency slots: a script counts
// an account's slots and, under the limit, writes the request's own slot
// key (account and request id) with a TTL; the request deletes its slot
// when it ends. No one else can hold a request's own slot, and no
// command compares its value, so its DEL is no lock's release. The twin
// keys its slot by the account alone and renews it through a script that
// compares the holder's value: a lock, whose plain DEL deletes whoever
// holds it by then.
package requestslot

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var acquireSlot = redis.NewScript(`
local cursor, count = "0", 0
repeat
	local r = redis.call('SCAN', cursor, 'MATCH', KEYS[1], 'COUNT', 100)
	cursor = r[1]
	count = count + #r[2]
until cursor == "0"
if count < tonumber(ARGV[1]) then
	redis.call('SET', KEYS[2], '1', 'EX', ARGV[2])
	return 1
end
return 0`)

func slotKey(account int64, requestID string) string {
	return fmt.Sprintf("concurrency:account:%d:%s", account, requestID)
}

type Slots struct{ rdb *redis.Client }

func (s *Slots) AcquireSlot(ctx context.Context, account int64, max int, requestID string) (bool, error) {
	pattern := fmt.Sprintf("concurrency:account:%d:*", account)
	n, err := acquireSlot.Run(ctx, s.rdb, []string{pattern, slotKey(account, requestID)}, max, 60).Int()
	return n == 1, err
}

// Near miss (silent): the request's own slot.
func (s *Slots) ReleaseSlot(ctx context.Context, account int64, requestID string) error {
	key := slotKey(account, requestID)
	return s.rdb.Del(ctx, key).Err()
}

var renewOwned = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`)

func exportKey(account int64) string { return fmt.Sprintf("export:account:%d", account) }

func (s *Slots) AcquireExport(ctx context.Context, account int64, token string) (bool, error) {
	return s.rdb.SetNX(ctx, exportKey(account), token, time.Minute).Result()
}

func (s *Slots) RenewExport(ctx context.Context, account int64, token string) error {
	return renewOwned.Run(ctx, s.rdb, []string{exportKey(account)}, token, 60000).Err()
}

// Must report: one account's export lock, deleted with no owner check.
func (s *Slots) ReleaseExport(ctx context.Context, account int64) error {
	key := exportKey(account)
	return s.rdb.Del(ctx, key).Err() // want "DEL of lock key `key`"
}
