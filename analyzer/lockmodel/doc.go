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
package lockmodel
