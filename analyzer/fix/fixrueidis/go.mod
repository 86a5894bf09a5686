module github.com/locklint/locklint/analyzer/fix/fixrueidis

go 1.25.0

require (
	github.com/locklint/locklint/analyzer/fix/lock v0.1.0
	github.com/redis/rueidis v1.0.79
)

require golang.org/x/sys v0.47.0 // indirect

