-- KEYS[1] payout lock, ARGV[1] lease in milliseconds.
-- Keeps the lease alive while a payout batch runs.
return redis.call("PEXPIRE", KEYS[1], ARGV[1])
