-- KEYS[1]    lock key
-- KEYS[2..]  ARGV[3] fence keys: the fence counter, then the fence
--            record (the fence issued with the current lock) of a
--            counter that other locks may share; then, if ARGV[4] ~= "",
--            the queue of waiting callers
-- ARGV[1]    owner token
-- ARGV[2]    lease in milliseconds
-- ARGV[3]    how many fence keys are passed: "0", "1" or "2"
-- ARGV[4]    the caller's entry in the queue, or "" for an attempt that
--            neither queues nor honours the queue
-- ARGV[5]    how long a lock reserved for the queue's head waits for it
--            to claim it, in milliseconds
-- ARGV[6]    how long the queue outlives its last change, in milliseconds
-- ARGV[7]    the channel that wakes waiters
-- ARGV[8]    "s" to publish on a shard channel (Redis Cluster)
-- Returns {fence} (fence 1 without fencing) when acquired; {0, pttl} when
-- not, pttl being how long the lock is held for at least (negative when
-- unknown); {-2} when the key holds the caller's token but the fence
-- issued with it is gone (an expired, evicted or deleted counter or record).
--
-- The queue is a JSON array of entries, first come first served, one per
-- waiting process (its waiters take turns among themselves). A release
-- does not free a lock with a queue: it reserves the lock for the head
-- entry (the lock key holds the entry for ARGV[5] ms) and publishes the
-- entry on the channel; the head's next attempt claims it.
local lock = KEYS[1]
local n = 2 + tonumber(ARGV[3])
local fence, record, queue
if n > 2 then
  fence = KEYS[2]
end
if n > 3 then
  record = KEYS[3]
end
local entry = ARGV[4]
if entry ~= "" then
  queue = KEYS[n]
end

local held, raw
if queue then
  local both = redis.call("MGET", lock, queue)
  held, raw = both[1], both[2]
else
  held = redis.call("GET", lock)
end

-- The client re-sends a command whose reply it lost, and a release hands
-- a lock to the next waiter of its process by setting that waiter's
-- token: finding the caller's own token is the same acquisition, with the
-- fence issued with it. A counter of this lock's own moves only when the
-- lock changes hands (a new life starts at the fence it issues), so while
-- the token holds the lock its value is that fence; a counter that others
-- may share has the fence recorded.
if held == ARGV[1] then
  if not fence then
    return {1}
  end
  local issued = redis.call("GET", record or fence)
  if issued then
    return {tonumber(issued)}
  end
  return {-2}
end

-- The fence counter's life and its start from TIME: see fenced.lua.
local function take()
  redis.call("SET", lock, ARGV[1], "PX", ARGV[2])
  if fence then
    local issued = redis.call("INCR", fence)
    if issued < 1e15 then
      local now = redis.call("TIME")
      issued = tonumber(now[1]) * 1000000 + tonumber(now[2])
      redis.call("SET", fence, issued, "PX", 86400000)
    end
    if record then
      redis.call("SET", record, issued, "PX", ARGV[2])
    end
    return {issued}
  end
  return {1}
end

if not queue then
  if held then
    return {0, -1}
  end
  return take()
end

local q = {}
if raw then
  q = cjson.decode(raw)
end
local function save()
  if #q == 0 then
    redis.call("DEL", queue)
  else
    redis.call("SET", queue, cjson.encode(q), "PX", ARGV[6])
  end
end
local at
for i = 1, #q do
  if q[i] == entry then
    at = i
    break
  end
end

-- Reserved for this caller's entry (which left the queue then), or free
-- with nobody queued ahead of it.
if held == entry or (not held and (#q == 0 or at == 1)) then
  if at then
    table.remove(q, at)
    save()
  end
  return take()
end

if not held then
  -- Free with others queued first: the lock expired, or a release that
  -- does not know the queue freed it. Reserve it for the head and wake it.
  local head = table.remove(q, 1)
  redis.call("SET", lock, head, "PX", ARGV[5])
  local publish = "PUBLISH"
  if ARGV[8] == "s" then
    publish = "SPUBLISH"
  end
  redis.pcall(publish, ARGV[7], head)
  if not at then
    table.insert(q, entry)
  end
  save()
  return {0, tonumber(ARGV[5])}
end

if at then
  redis.call("PEXPIRE", queue, ARGV[6])
else
  table.insert(q, entry)
  save()
end
return {0, redis.call("PTTL", lock)}
