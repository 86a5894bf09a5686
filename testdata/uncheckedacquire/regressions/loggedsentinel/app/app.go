// Package app pins the held-out miss of a not-obtained sentinel that is
// only logged (dineshgowda24/redislock's examples): Obtain is the
// module's own, over a go-redis v7 adapter, and when it says the lock is
// held by another the code prints so, defers the release and runs the
// section anyway. The near miss returns on the sentinel.
package app

import (
	"fmt"
	"log"
	"time"

	"github.com/go-redis/redis/v7"

	"locklint.test/uncheckedacquire/regressions/loggedsentinel/redislock"
)

type client struct{ rdb *redis.Client }

func (c client) SetNX(key string, value interface{}, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(key, value, ttl).Result()
}

func (c client) Eval(script string, keys []string, args ...interface{}) (interface{}, error) {
	return c.rdb.Eval(script, keys, args...).Result()
}

// Must report: ErrNotObtained is printed, then the section runs.
func Example(rdb *redis.Client) {
	lock, err := redislock.Obtain(client{rdb}, "my-key", 100*time.Millisecond) // want "`redislock\\.Obtain`'s not-obtained error .*the code after it runs without the lock"
	if err == redislock.ErrNotObtained {
		fmt.Println("Could not obtain lock!")
	} else if err != nil {
		log.Fatalln(err)
	}
	defer lock.Release()
	fmt.Println("I have a lock!")
}

// Near miss (silent): the sentinel ends the function.
func ExampleChecked(rdb *redis.Client) {
	lock, err := redislock.Obtain(client{rdb}, "my-key", 100*time.Millisecond)
	if err == redislock.ErrNotObtained {
		fmt.Println("Could not obtain lock!")
		return
	} else if err != nil {
		log.Fatalln(err)
	}
	defer lock.Release()
	fmt.Println("I have a lock!")
}
