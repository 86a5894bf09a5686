// Package lockmodel is the shared model behind every locklint pass: it
// turns the calls a package makes through go-redis (v6 to v9), redigo,
// rueidis and valkey-go, goframe's gredis, and the service's own wrappers
// into normalized Redis commands (command, flags, keys, value, TTL,
// pipeline and transaction context, enclosing function), and answers the
// questions the passes share: which keys are lock keys and on what
// evidence, which key expressions denote the same key, what token an
// acquire stored, and which entry of the lock library (the go-redis v9
// front, or the core through the client's adapter) a command's client
// gets in messages and suggested fixes.
//
// Clients are recognised by the callee's declaring package and name, never
// by how the receiver is spelled, so calls through *redis.Client,
// *redis.ClusterClient, *redis.Ring, redis.UniversalClient, redis.Cmdable,
// pipelines, transactions, type parameters and user types that embed a
// client all resolve to the same commands. Methods with a go-redis
// command's signature and functions that forward their parameters to one
// command (Forwarder facts, across packages) are commands too. Passes read
// the model and never match command or client method names themselves; a
// contract test in the analyzer package holds them to it.
//
// A package that reaches no Redis client, directly or through its
// imports, costs one walk over its import graph.
//
// The model returns facts, never words: the evidence that a key is a lock
// (Why), the trail of a token's value (Trail), the library entry for a
// client (Library). Messages say them through package diag.
//
// # Where each question is answered
//
//   - what the model is and how it is built: model.go; the command record:
//     call.go; commands, options and clients: command.go
//   - which packages are clients and which the facts cover: clients.go,
//     scope.go
//   - the walk and the client dispatch: collect.go, cursor.go; each
//     client's reader: goredis.go, redigo.go, rueidis.go, goframe.go;
//     ports and wrappers: port.go, wrappers.go, forwarding.go (the
//     forwarder fixed point)
//   - arguments and constants: args.go; how a reply is used: replies.go;
//     INCR windows: window.go
//   - the definition index: defs.go, stores.go, deflookup.go
//   - which expressions are the same key: keys.go; same slot: slot.go
//   - is the key a lock: lockkey.go, with the words (lockword.go,
//     keynames.go), sibling methods (siblings.go), helper pairs
//     (paired.go), owner-checked release helpers (ownedrelease.go),
//     slices of acquired keys (keptkeys.go), key families read or counted
//     as data (families.go), keys unique to one run, or to the count an
//     INCR or DECR handed the caller (runkey.go), a taker's own records
//     (ownrecord.go), and dedupe markers of one request, event or
//     message, and a client token's own record (requestkey.go)
//   - leader leases: leader.go; one-shot markers: marker.go; undo on
//     failure: undo.go, and claims kept on success: claim.go; a waiter's
//     repair of a key left with no TTL: ttlrepair.go
//   - the token an acquire stores: token.go, tokencall.go, origin.go,
//     tokenhelpers.go (facts), knowledge.go (known APIs); the token at a
//     release: acquiredtoken.go
//   - Lua scripts: script.go (the text), scriptacquire.go (acquires),
//     lua.go over internal/lua (the reader)
//   - the lock library's entry for a client: library.go
//   - acquires and what a lost one returns: facts.go, miss.go, errsite.go,
//     obtainer.go (a lock package's own Obtain and its error);
//     owner checks: ownercheck.go; fences: fence.go; split acquires:
//     split.go; control flow: flow.go; type questions: typesx.go
package lockmodel
