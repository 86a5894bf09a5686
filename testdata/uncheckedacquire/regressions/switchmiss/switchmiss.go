// Package switchmiss pins a take whose outcome is tested in a tagless
// switch: the not-obtained case only prints and falls out of the switch
// into the deletes the lock was taken for, so a game another handler is
// writing back is deleted beside it: reported. The near misses return in
// that case, and test the error in a switch whose not-obtained case
// returns while the other errors end the process.
package switchmiss

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

type Store struct{ client *redis.Client }

func (s *Store) DeleteGame(key string) {
	locker := redislock.New(s.client)
	lock, err := locker.Obtain(ctx, key+":lock", 250*time.Millisecond, nil) // want "`locker\\.Obtain`'s not-obtained error is only logged"
	switch {
	case errors.Is(err, redislock.ErrNotObtained):
		fmt.Println("Could not obtain lock!")
	case err != nil:
		log.Fatalln(err)
	default:
		defer lock.Release(ctx)
	}
	s.client.Del(ctx, key+":ptr")
	s.client.Del(ctx, key)
}

// Near miss: the not-obtained case returns.
func (s *Store) DeleteGameChecked(key string) {
	locker := redislock.New(s.client)
	lock, err := locker.Obtain(ctx, key+":lock", 250*time.Millisecond, nil)
	switch {
	case errors.Is(err, redislock.ErrNotObtained):
		fmt.Println("Could not obtain lock!")
		return
	case err != nil:
		log.Fatalln(err)
	}
	defer lock.Release(ctx)
	s.client.Del(ctx, key)
}
