-- KEYS[1]    lock key
-- KEYS[2..]  if ARGV[3] == "1": the fence counter, then the fence record
--            (the fence issued with the current lock); then, if
--            ARGV[4] ~= "", the waiter turn key (the token of the waiter
--            holding the next turn) and its since key (when that waiter
--            started waiting, in server milliseconds)
-- ARGV[1]    owner token
-- ARGV[2]    lease in milliseconds
-- ARGV[3]    "1" when fence keys are passed
-- ARGV[4]    how long the caller has been waiting, in milliseconds on its
--            own monotonic clock, or "" when not waiting
-- ARGV[5]    turn reservation lifetime in milliseconds
-- Returns the fence (or 1 without fencing) when acquired, 0 when not,
-- -1 when not acquired but the caller holds the next turn, and -2 when the
-- key holds the caller's token but the fence issued with it is gone.
local n = 2
local fence, record, turn, since
if ARGV[3] == "1" then
  fence = KEYS[n]
  record = KEYS[n + 1]
  n = n + 2
end
if ARGV[4] ~= "" then
  turn = KEYS[n]
  since = KEYS[n + 1]
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
-- polls less often, having backed off longer, still gets its place. Start
-- times are the server's clock less the time waited, so hosts whose clocks
-- disagree are ordered as the server sees them.
local mine = false
local started
if turn then
  local now = redis.call("TIME")
  started = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) - tonumber(ARGV[4])
  local holder = redis.call("GET", turn)
  if holder == ARGV[1] then
    mine = true
  elseif holder then
    local first = tonumber(redis.call("GET", since))
    if first == nil or first <= started then
      -- An earlier waiter holds the next turn: leave a free lock to it.
      return 0
    end
  end
end

if not redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  if turn then
    if mine then
      redis.call("PEXPIRE", turn, ARGV[5])
      redis.call("PEXPIRE", since, ARGV[5])
    else
      redis.call("SET", turn, ARGV[1], "PX", ARGV[5])
      redis.call("SET", since, started, "PX", ARGV[5])
    end
    return -1
  end
  return 0
end

if mine then
  redis.call("DEL", turn, since)
end
if fence then
  local issued = redis.call("INCR", fence)
  redis.call("SET", record, issued, "PX", ARGV[2])
  return issued
end
return 1
