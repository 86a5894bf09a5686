-- A process whose last waiter gave up leaves the queue (see acquire.lua);
-- a lock reserved for it goes on to the next entry, or is freed.
-- KEYS[1]    lock key
-- KEYS[2]    the queue of waiting callers
-- ARGV[1]    the process's entry
-- ARGV[2]    how long a lock reserved for the queue's head waits for it
--            to claim it, in milliseconds
-- ARGV[3]    how long the queue outlives its last change, in milliseconds
-- ARGV[4]    the channel that wakes waiters
-- ARGV[5]    "s" to publish on a shard channel (Redis Cluster)
-- Returns 1 when a lock reserved for the entry was passed on, 0 otherwise.
local both = redis.call("MGET", KEYS[1], KEYS[2])
local held, raw = both[1], both[2]
if not raw and held ~= ARGV[1] then
  return 0
end

local q = {}
if raw then
  q = cjson.decode(raw)
end
for i = 1, #q do
  if q[i] == ARGV[1] then
    table.remove(q, i)
    break
  end
end
local passed = 0
if held == ARGV[1] then
  passed = 1
  if #q > 0 then
    local head = table.remove(q, 1)
    redis.call("SET", KEYS[1], head, "PX", ARGV[2])
    local publish = "PUBLISH"
    if ARGV[5] == "s" then
      publish = "SPUBLISH"
    end
    redis.pcall(publish, ARGV[4], head)
  else
    redis.call("DEL", KEYS[1])
  end
end
if #q == 0 then
  if raw then
    redis.call("DEL", KEYS[2])
  end
else
  redis.call("SET", KEYS[2], cjson.encode(q), "PX", ARGV[3])
end
return passed
