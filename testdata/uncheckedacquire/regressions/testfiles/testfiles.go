// Package testfiles pins that acquires in _test.go files are skipped by
// default: a test takes a key to exercise the server, not to guard work.
package testfiles
