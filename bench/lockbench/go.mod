module github.com/locklint/locklint/bench/lockbench

go 1.26.0

require (
	github.com/bsm/redislock v0.9.4
	github.com/go-redsync/redsync/v4 v4.18.1
	github.com/locklint/locklint/analyzer/fix v0.1.0
	github.com/redis/go-redis/v9 v9.23.0
	golang.org/x/sys v0.49.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/locklint/locklint/analyzer/fix/lock v0.1.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
)

replace github.com/locklint/locklint/analyzer/fix => ../../analyzer/fix

replace github.com/locklint/locklint/analyzer/fix/lock => ../../analyzer/fix/lock
