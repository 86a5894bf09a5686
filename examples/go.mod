module github.com/locklint/locklint/examples

go 1.26.0

require (
	github.com/alicebob/miniredis/v2 v2.40.0
	github.com/gomodule/redigo v1.9.3
	github.com/locklint/locklint/analyzer/fix v0.1.0
	github.com/redis/go-redis/v9 v9.23.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/locklint/locklint/analyzer/fix/lock v0.1.0 // indirect
	github.com/yuin/gopher-lua v1.1.1 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)

// The examples use the library from this repository, as a service would
// from a tagged version.
replace github.com/locklint/locklint/analyzer/fix => ../analyzer/fix

replace github.com/locklint/locklint/analyzer/fix/lock => ../analyzer/fix/lock
