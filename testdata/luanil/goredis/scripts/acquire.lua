-- Takes the lock when it is free, or refreshes it for its holder.
local holder = redis.call('GET', KEYS[1])
if holder == nil then
  return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 0
