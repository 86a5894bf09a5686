// Command golangci-lint-locklint is golangci-lint v2.15.0 with the locklint
// module plugin compiled in: what `golangci-lint custom` produces from
// .custom-gcl.yml, built from this module so that CI, which cannot clone
// golangci-lint, still exercises the real plugin path.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/locklint/locklint/plugin/golangci"
)

func main() {
	info := commands.BuildInfo{Version: "2.15.0-locklint", Commit: "?", Date: "(unknown)", GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
	}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
