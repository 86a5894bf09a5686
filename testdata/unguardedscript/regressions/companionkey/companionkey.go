// Package companionkey pins a seat hold kept with a record beside it: one
// script takes the seat's key with SET NX for a ticket and writes, with a
// plain SET, the ticket's own key naming the seat it holds (so that a
// ticket holds one seat at a time); the same script's release deletes
// both, only once the seat's owner is checked. The ticket's key is never
// taken by itself: it is a record of the seat's holder, and its delete
// under the seat's owner check is that hold's own clean-up. The twin
// deletes a second key that the script takes with NX on its own: a lock
// whose owner nobody checks.
package companionkey

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const holdScript = `
local seatKey = KEYS[1]
local ticketLockKey = KEYS[2]
local current = redis.call("GET", seatKey)
if ARGV[3] == "unlock" then
	if current == ARGV[2] then
		redis.call("DEL", seatKey)
		redis.call("DEL", ticketLockKey)
	end
	return "unlocked"
end
if current then
	if current == ARGV[2] then
		redis.call("PEXPIRE", seatKey, ARGV[4])
		redis.call("SET", ticketLockKey, ARGV[1], "PX", ARGV[4])
		return "locked"
	end
	return "taken"
end
local held = redis.call("GET", ticketLockKey)
if held and held ~= ARGV[1] then
	return "taken"
end
if redis.call("SET", seatKey, ARGV[2], "PX", ARGV[4], "NX") then
	redis.call("SET", ticketLockKey, ARGV[1], "PX", ARGV[4])
	return "locked"
end
return "taken"
`

func Hold(ctx context.Context, rdb *redis.Client, event, seat, ticket, action string, ttl time.Duration) (string, error) {
	seatKey := "seat_lock:" + event + ":" + seat
	ticketLockKey := "ticket_lock:" + event + ":" + ticket
	return rdb.Eval(ctx, holdScript, []string{seatKey, ticketLockKey}, seat, ticket, action, ttl.Milliseconds()).Text()
}

// Must report: the second key is taken with NX on its own, by whoever
// finds it free, so the first key's owner says nothing of its holder.
const pairScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("DEL", KEYS[1]) redis.call("DEL", KEYS[2]) return 1 end if redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2], "NX") then redis.call("SET", KEYS[2], ARGV[1], "PX", ARGV[2], "NX") return 1 end return 0` // want `Lua line 1: DEL of KEYS\[2\]`

func Pair(ctx context.Context, rdb *redis.Client, a, b, token string, ttl time.Duration) (int64, error) {
	return rdb.Eval(ctx, pairScript, []string{"lock:" + a, "lock:" + b}, token, ttl.Milliseconds()).Int64()
}
