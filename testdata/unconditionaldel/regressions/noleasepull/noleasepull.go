// Package noleasepull pins a cloud platform's image-pull lock: the
// request takes "image_<name>:<tag>" with SETNX of "1" and KEEPTTL, no
// expiry, and deletes it with a plain DEL only when queueing the pull
// failed, right after the take. With no lease, the key it deletes is the
// one it took: no later holder can have it, and the missing TTL is the
// acquire's defect (setnxexpire's): silent. The image delete of the same
// package takes "image_<id>" with a 30 s lease and defers a plain DEL
// after slow work: a lease that lapses hands the key on, and the DEL
// removes the next holder's lock: reported. So is a pull whose key some
// command of the package gives a TTL later.
package noleasepull

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Svc struct {
	rdb         *redis.Client
	imagePrefix string
}

func enqueue(context.Context, string) error { return nil }
func remove(context.Context, string) error  { return nil }

func (s *Svc) Pull(ctx context.Context, name, tag string) error {
	ok, err := s.rdb.SetNX(ctx, fmt.Sprintf(s.imagePrefix, name+":"+tag), "1", redis.KeepTTL).Result()
	if err != nil || !ok {
		return errors.New("a pull of this image is queued")
	}
	if err := enqueue(ctx, name+":"+tag); err != nil {
		if err := s.rdb.Del(ctx, fmt.Sprintf(s.imagePrefix, name+":"+tag)).Err(); err != nil {
			s.rdb.RPush(ctx, "exceptions", fmt.Sprintf(s.imagePrefix, name+":"+tag))
		}
		return err
	}
	return nil
}

func (s *Svc) Delete(ctx context.Context, id string) error {
	ok, err := s.rdb.SetNX(ctx, fmt.Sprintf(s.imagePrefix, id), "1", 30*time.Second).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer s.rdb.Del(ctx, fmt.Sprintf(s.imagePrefix, id)) // want "DEL of lock key"
	return remove(ctx, id)
}

// Must report: the build's key, taken with no TTL, is given one by a
// later EXPIRE, so a lapse can hand it on before the deferred DEL.
func (s *Svc) Build(ctx context.Context, name string) error {
	key := "build:lock:" + name
	ok, err := s.rdb.SetNX(ctx, key, "1", 0).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	s.rdb.Expire(ctx, key, time.Minute)
	defer s.rdb.Del(ctx, key) // want "DEL of lock key"
	return enqueue(ctx, name)
}

// Must report: the take's reply is reduced to its error, so a miss runs
// on and the DEL removes whoever holds the key.
func (s *Svc) Prune(ctx context.Context, name string) error {
	key := "prune:lock:" + name
	if err := s.rdb.SetNX(ctx, key, "1", 0).Err(); err != nil {
		return err
	}
	err := enqueue(ctx, name)
	s.rdb.Del(ctx, key) // want "DEL of lock key"
	return err
}
