module github.com/locklint/locklint/analyzer/fix/lock

go 1.24
