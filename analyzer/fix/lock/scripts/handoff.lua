-- Release that knows the queue (see acquire.lua) and can hand the lock
-- straight to the next waiter of the releasing process.
-- KEYS[1]    lock key
-- KEYS[2]    the queue of waiting callers
-- KEYS[3..]  the next owner's fence keys, when it fences: the counter,
--            then the record of a counter that other locks may share
--            (see acquire.lua)
-- ARGV[1]    the releasing owner's token
-- ARGV[2]    the next owner's token, or "" when the process has no waiter
-- ARGV[3]    the next owner's lease in milliseconds
-- ARGV[4]    the releasing process's own entry in the queue, or ""
-- ARGV[5]    how long a lock reserved for the queue's head waits for it
--            to claim it, in milliseconds
-- ARGV[6]    how long the queue outlives its last change, in milliseconds
-- ARGV[7]    the channel that wakes waiters
-- ARGV[8]    "s" to publish on a shard channel (Redis Cluster)
-- Returns {1, fence} when the lock went to the next owner (fence 0
-- without fencing, -2 when a re-sent copy finds the fence gone), {2} when
-- it was deleted, {3} when it was reserved for the head of the queue, and
-- {0} when the lock did not hold the releasing owner's token.
local both = redis.call("MGET", KEYS[1], KEYS[2])
local held, raw = both[1], both[2]
local fenced = #KEYS >= 3

if held ~= ARGV[1] then
  -- The client re-sends a command whose reply it lost: a copy that finds
  -- the next owner's token is the same hand-off.
  if ARGV[2] ~= "" and held == ARGV[2] then
    if not fenced then
      return {1, 0}
    end
    local issued = redis.call("GET", KEYS[#KEYS])
    if issued then
      return {1, tonumber(issued)}
    end
    return {1, -2}
  end
  return {0}
end

local q = {}
if raw then
  q = cjson.decode(raw)
end
local function save()
  if #q == 0 then
    redis.call("DEL", KEYS[2])
  else
    redis.call("SET", KEYS[2], cjson.encode(q), "PX", ARGV[6])
  end
end

-- The next waiter of this process goes first only if the process's entry
-- heads the queue, or the process has none and nobody else is queued.
local mine = ARGV[2] ~= "" and (#q == 0 or (ARGV[4] ~= "" and q[1] == ARGV[4]))
if mine then
  if #q > 0 then
    table.remove(q, 1)
    save()
  end
  redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
  if not fenced then
    return {1, 0}
  end
  -- The fence counter's life and its start from TIME: see fenced.lua.
  local issued = redis.call("INCR", KEYS[3])
  if issued < 1e15 then
    local now = redis.call("TIME")
    issued = tonumber(now[1]) * 1000000 + tonumber(now[2])
    redis.call("SET", KEYS[3], issued, "PX", 86400000)
  end
  if KEYS[4] then
    redis.call("SET", KEYS[4], issued, "PX", ARGV[3])
  end
  return {1, issued}
end

if #q > 0 then
  local head = table.remove(q, 1)
  redis.call("SET", KEYS[1], head, "PX", ARGV[5])
  local publish = "PUBLISH"
  if ARGV[8] == "s" then
    publish = "SPUBLISH"
  end
  redis.pcall(publish, ARGV[7], head)
  save()
  return {3}
end

redis.call("DEL", KEYS[1])
return {2}
