// Package consts holds the service's key formats and scripts, in
// variables: their text is not in the export data, as a constant's is.
package consts

var (
	RedisLockKey = "exam_lock:submit:%d"

	UnlockScript = `
		if redis.call("get", KEYS[1]) == ARGV[1] then
			return redis.call("del", KEYS[1])
		else
			return 0
		end
		`
	// TouchScript extends the lease: it deletes nothing.
	TouchScript = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0`
)
