// Package conf holds the service's one client, as a package variable.
package conf

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var Ctx = context.Background()

var Rdb = redis.NewClient(&redis.Options{})
