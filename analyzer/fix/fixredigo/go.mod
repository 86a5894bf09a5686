module github.com/locklint/locklint/analyzer/fix/fixredigo

go 1.24

require (
	github.com/gomodule/redigo v1.9.3
	github.com/locklint/locklint/analyzer/fix/lock v0.1.0
)

