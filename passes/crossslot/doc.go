// Package crossslot defines an Analyzer that reports Lua scripts called
// with keys that may hash to different Redis Cluster slots.
//
// # Analyzer crossslot
//
// crossslot: report multi-key Lua scripts whose keys share no Cluster hash tag
//
// Redis Cluster runs a script on one node, so every key it is given must
// hash to the same slot; otherwise the call fails with CROSSSLOT, at run
// time and only on the Cluster. A lock that issues a fence number in the
// same script as the acquire (so that a paused holder cannot get a newer
// fence after losing the lock) passes two keys, and names like these land
// on different slots:
//
//	acquire := redis.NewScript(`if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
//	  return redis.call('INCR', KEYS[2]) end return 0`)
//	acquire.Run(ctx, cluster, []string{"lock:" + id, "fence:" + id}, token, ttl)
//
// A key's slot is the CRC16 of its hash tag, the text between the first
// '{' and the next '}', when it has one. Put the shared part in braces and
// both keys hash to the same slot:
//
//	acquire.Run(ctx, cluster, []string{"lock:{" + id + "}", "fence:{" + id + "}"}, token, ttl)
//
// or let fix.Obtain with fix.WithFencing from
// github.com/locklint/locklint/analyzer/fix derive the fence key, which it
// places in the lock key's slot.
//
// Package fix takes a go-redis v9 client; for go-redis v8, redigo,
// rueidis and valkey-go the message names lock.WithFencing from the library's
// core, github.com/locklint/locklint/analyzer/fix/lock, with the client's
// adapter (fixredigo.Conn and the like), and for a client with no adapter
// (go-redis v6 and v7, garyburd/redigo, goframe) the core alone.
//
// Keys are read through constants, concatenation, fmt.Sprintf with a
// constant format (the same argument under %s, %v or %d is the same
// text), local variables, struct fields stored once and one-line helper
// functions; constant keys without a tag are hashed, and the call is
// silent when they happen to share a slot. A key handed in whole by a
// caller (a parameter, a slice built at run time) cannot be read and
// keeps the call silent, unless the package derives the other key from
// it by adding text with no hash tag (key + ":lock-intent",
// "channel:" + key): those share a slot only if every caller braces its
// key. Such a pair is reported on a Cluster client, and on a go-redis
// client interface (Cmdable, Scripter), which a Cluster client satisfies,
// called directly or through a struct of the package that embeds it.
//
// The call is reported when its client may be a Cluster client (go-redis
// *ClusterClient, UniversalClient, and Ring, which sends a script to the
// shard of its first key only), and, whatever the client, when the keys
// are a lock key and a fence key (a fence word in the key, or a key the
// script INCRs and whose count it returns; a count it keeps, such as a
// read-write lock's readers, is no fence): that pattern is meant to
// survive a move to the Cluster.
// rueidis and redigo clients do not say whether they talk to a Cluster;
// set -anyclient to treat every client as one.
//
// There is no suggested fix: renaming a lock key must change every place
// that names it, and be rolled out with no holder of the old name left.
package crossslot
