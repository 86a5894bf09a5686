// Package behaviour holds the lock library's behaviour tests and the test
// servers they run against. It is a module of its own so that the
// library's go.mod lists only what a service that imports the library
// builds: miniredis, goleak and gopher-lua stay here.
package behaviour
