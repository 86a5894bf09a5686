package lockmodel

// What the Lua commands a script sends do to a lock, in one place, so that
// the passes ask the model instead of naming commands.

var (
	luaRemoves    = map[string]bool{"DEL": true, "UNLINK": true, "HDEL": true} // HDEL: a hash lock's owner field
	luaExtends    = map[string]bool{"EXPIRE": true, "PEXPIRE": true, "EXPIREAT": true, "PEXPIREAT": true}
	luaIncrements = map[string]bool{"INCR": true, "INCRBY": true}
	// luaHashTakes are the writes that create a hash lock with its
	// holder's field (a reentrant lock keeps a hold count per holder):
	// after an EXISTS of the key they take it, as SET does.
	luaHashTakes = map[string]bool{"HSET": true, "HSETNX": true, "HINCRBY": true, "HMSET": true}
	// luaOwnerReads are the reads whose reply, compared with the holder's
	// token, checks the owner: GET for string locks, HGET/HEXISTS for hash
	// locks (reentrant locks keep the owner as a field).
	luaOwnerReads = map[string]bool{
		"GET": true, "HGET": true, "HEXISTS": true, "HMGET": true, "SISMEMBER": true, "ZSCORE": true, "LINDEX": true,
		"MGET": true, // its first element, the read of its first key
	}
)

// Removes reports whether the call deletes its key (or a hash lock's
// field) unconditionally.
func (c *LuaCall) Removes() bool { return luaRemoves[c.Command] }

// Extends reports whether the call sets its key's TTL.
func (c *LuaCall) Extends() bool { return luaExtends[c.Command] }

// Increments reports whether the call is a counter increment: in a lock
// script, a fence.
func (c *LuaCall) Increments() bool { return luaIncrements[c.Command] }

// TakesHash reports whether the call writes a hash lock's holder field,
// which creates the key when it is absent.
func (c *LuaCall) TakesHash() bool { return luaHashTakes[c.Command] }

// ReadsOwner reports whether the call's reply can be compared with a token
// to check the owner.
func (c *LuaCall) ReadsOwner() bool { return luaOwnerReads[c.Command] }
