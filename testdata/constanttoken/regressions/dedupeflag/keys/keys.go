// Package keys makes the Redis keys of dedupeflag: a prefix and a template.
package keys

import (
	"fmt"

	"github.com/redis/go-redis/v9"
)

var prefix = "ns:"

// Key formats templ with args under the configured prefix.
func Key(templ string, args ...any) string {
	return prefix + fmt.Sprintf(templ, args...)
}

var client redis.UniversalClient

// Client is the process's Redis client.
func Client() redis.UniversalClient { return client }
