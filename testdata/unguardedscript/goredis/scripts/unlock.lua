-- KEYS[1] lock key. Deletes it, whoever holds it.
return redis.call("DEL", KEYS[1])
