-- KEYS[1]    lock key
-- KEYS[2..]  if ARGV[3] == "1": the fence counter, then the fence record
--            (the fence issued with the current lock); then the waiter
--            turn key if ARGV[4] ~= ""
-- ARGV[1]    owner token
-- ARGV[2]    lease in milliseconds
-- ARGV[3]    "1" when fence keys are passed
-- ARGV[4]    waiter id claiming the turn key, "<start ms>|<token>", or ""
--            when not waiting
-- ARGV[5]    turn reservation lifetime in milliseconds
-- Returns the fence (or 1 without fencing) when acquired, 0 when not,
-- -1 when not acquired but the caller holds the next turn, and -2 when the
-- key holds the caller's token but the fence issued with it is gone.
local n = 2
local fence, record, turn
if ARGV[3] == "1" then
  fence = KEYS[n]
  record = KEYS[n + 1]
  n = n + 2
end
if ARGV[4] ~= "" then
  turn = KEYS[n]
end

-- The client re-sends a command whose reply it lost: a copy that finds the
-- caller's own token is the same acquisition, and gets the same fence.
if redis.call("GET", KEYS[1]) == ARGV[1] then
  if not fence then
    return 1
  end
  local issued = redis.call("GET", record)
  if issued then
    return tonumber(issued)
  end
  return -2
end

-- The turn goes to the waiter that started waiting first: a waiter that
-- polls less often, having backed off longer, still gets its place.
local mine = false
if turn then
  local holder = redis.call("GET", turn)
  if holder == ARGV[4] then
    mine = true
  elseif holder then
    local since = tonumber(string.match(holder, "^(%d+)|"))
    local me = tonumber(string.match(ARGV[4], "^(%d+)|"))
    if since == nil or me == nil or since <= me then
      -- An earlier waiter holds the next turn: leave a free lock to it.
      return 0
    end
  end
end

if not redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  if turn then
    redis.call("SET", turn, ARGV[4], "PX", ARGV[5])
    return -1
  end
  return 0
end

if mine then
  redis.call("DEL", turn)
end
if fence then
  local issued = redis.call("INCR", fence)
  redis.call("SET", record, issued, "PX", ARGV[2])
  return issued
end
return 1
