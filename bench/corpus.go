//go:build corpus

// Package bench holds the reliability sweep and lint-cost scripts. This
// file pins the perf corpus: the modules sweep.sh and lintcost.sh lint are
// required here (not in the main go.mod), and the build tag keeps them out
// of every ordinary build.
package bench

import (
	_ "github.com/bsm/redislock"
	_ "github.com/go-redsync/redsync/v4"
	_ "github.com/hibiken/asynq"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/zeromicro/go-zero/core/stores/redis"
	_ "golang.org/x/tools/go/analysis"
)
