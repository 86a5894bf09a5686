module github.com/locklint/locklint/analyzer/fix/fixvalkey

go 1.26.0

require (
	github.com/locklint/locklint/analyzer/fix/lock v0.1.0
	github.com/valkey-io/valkey-go v1.0.80
)

require golang.org/x/sys v0.50.0 // indirect

