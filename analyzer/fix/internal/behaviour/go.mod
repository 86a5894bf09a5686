module github.com/locklint/locklint/analyzer/fix/internal/behaviour

go 1.26.0

require (
	github.com/alicebob/miniredis/v2 v2.40.0
	github.com/locklint/locklint/analyzer/fix v0.1.0
	github.com/locklint/locklint/analyzer/fix/fixrueidis v0.1.0
	github.com/locklint/locklint/analyzer/fix/fixvalkey v0.1.0
	github.com/redis/go-redis/v9 v9.18.0
	github.com/redis/rueidis v1.0.79
	github.com/valkey-io/valkey-go v1.0.80
	go.uber.org/goleak v1.3.0
	golang.org/x/mod v0.42.0
)

require golang.org/x/sys v0.50.0 // indirect

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dgryski/go-rendezvous v0.0.0-20200823014737-9f7001d12a5f // indirect
	github.com/go-redis/redis/v8 v8.11.5
	github.com/gomodule/redigo v1.9.3
	github.com/locklint/locklint/analyzer/fix/fixgoredis8 v0.1.0
	github.com/locklint/locklint/analyzer/fix/fixredigo v0.1.0
	github.com/locklint/locklint/analyzer/fix/lock v0.1.0
	github.com/yuin/gopher-lua v1.1.1 // indirect
	go.uber.org/atomic v1.11.0 // indirect
)






