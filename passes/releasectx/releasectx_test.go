package releasectx_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/releasectx"
)

func run(t *testing.T, pkg string) {
	t.Helper()
	testmod.RunWithSuggestedFixes(t, releasectx.Analyzer, "locklint.test/releasectx/"+pkg)
}

// An HTTP request's context, directly, through a variable, a value and a
// framework's request; beside a detached release, a timeout made in the
// deferred function, a release that is not deferred and a cache key.
func TestRequestContext(t *testing.T) { run(t, "request") }

// A gRPC handler's context, beside an ordinary function's parameter and
// a method of the same shape whose request is no message.
func TestGRPCHandler(t *testing.T) { run(t, "grpc") }

// A WithTimeout or WithDeadline the work runs under, beside a timeout
// made for the release.
func TestWorkTimeout(t *testing.T) { run(t, "timeout") }

// A cancel deferred after the release runs first; deferred before it,
// or with the release not deferred, it has not run.
func TestCancelDeferredAfter(t *testing.T) { run(t, "cancelfirst") }

// A wrapper's Unlock(ctx) that passes ctx to the client, beside one that
// detaches the release itself.
func TestWrapperUnlock(t *testing.T) { run(t, "wrapper") }

// Compare-and-delete scripts, beside a script that deletes nothing.
func TestReleaseScript(t *testing.T) { run(t, "script") }

// The lock library's releases and Do stay silent.
func TestLibrary(t *testing.T) { run(t, "library") }

func TestRedigoDoContext(t *testing.T) { run(t, "redigo") }
func TestRueidisDo(t *testing.T)       { run(t, "rueidis") }

// A module whose path has no dot (module seckill): its packages are no
// standard library's, so a gRPC layer that imports the use case's port
// is looked at, and the handler's context reaches the deferred release.
func TestModuleWithoutDot(t *testing.T) {
	t.Setenv("GOWORK", "off")
	analysistest.Run(t, "testdata/nodot", releasectx.Analyzer, "seckill/service")
}
