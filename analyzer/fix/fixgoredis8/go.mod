module github.com/locklint/locklint/analyzer/fix/fixgoredis8

go 1.24

require (
	github.com/go-redis/redis/v8 v8.11.5
	github.com/locklint/locklint/analyzer/fix/lock v0.1.0
)

require (
	github.com/cespare/xxhash/v2 v2.1.2 // indirect
	github.com/dgryski/go-rendezvous v0.0.0-20200823014737-9f7001d12a5f // indirect
)

