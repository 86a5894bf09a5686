// Package examples is a small job service with the Redis lock code people
// really write: each package holds the buggy version, marked with a
// BUG(analyzer) comment on the line locklint reports, beside the correct
// version built on github.com/locklint/locklint/analyzer/fix.
//
//	locklint ./examples/...
package examples
