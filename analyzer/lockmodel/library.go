package lockmodel

import "go/types"

// LibraryPath is the import path of the reference lock library that the
// diagnostics and suggested fixes point to.
const LibraryPath = "github.com/locklint/locklint/analyzer/fix"

// IsLibraryRelease reports whether fn is the lock library's owner-checked
// release or renewal, which passes a token back to the server.
func IsLibraryRelease(fn *types.Func) bool {
	return lookup(fn) == apiOwnerChecked
}
