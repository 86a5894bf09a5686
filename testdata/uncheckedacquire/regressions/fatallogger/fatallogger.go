// Package fatallogger pins the tests of a redislock Obtain's error in an
// if-else chain. Returning on ErrNotObtained and ending the process on
// any other error (logrus's Fatalln, zap's Fatal, a zerolog event begun
// by Fatal, as log's) checks every failure. Logging any other error and
// running on does not, and logging the not-obtained error does not
// either.
package fatallogger

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/bsm/redislock"
	"github.com/sirupsen/logrus"
)

var ctx = context.Background()

// Near miss (silent): the other errors end the process through logrus.
func Obtain(client *redislock.Client, key string) (*redislock.Lock, error) {
	lock, err := client.Obtain(ctx, key, time.Minute, nil)
	if err == redislock.ErrNotObtained {
		return nil, errors.New("failed to obtain lock")
	} else if err != nil {
		logrus.Fatalln(err)
	}
	_, err = lock.TTL(ctx)
	if err != nil {
		return nil, err
	}
	return lock, nil
}

// Near miss (silent): a logger's Fatal method ends it too.
func ObtainEntry(client *redislock.Client, key string, logger *logrus.Entry) (*redislock.Lock, error) {
	lock, err := client.Obtain(ctx, key, time.Minute, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return nil, err
	} else if err != nil {
		logger.Fatalf("obtain %s: %v", key, err)
	}
	work()
	return lock, nil
}

// Must report: the other errors are logged and the work runs.
func Run(client *redislock.Client, key string) {
	lock, err := client.Obtain(ctx, key, time.Minute, nil) // want "only `client.Obtain`'s not-obtained error ends the function: any other error is only logged"
	if err == redislock.ErrNotObtained {
		return
	} else if err != nil {
		logrus.Errorln(err)
	}
	defer lock.Release(ctx)
	work()
}

// Must report: the not-obtained error is logged and the work runs; the
// other errors end the process.
func RunLogged(client *redislock.Client, key string) {
	lock, err := client.Obtain(ctx, key, time.Minute, nil) // want "`client.Obtain`'s not-obtained error is only logged"
	if err == redislock.ErrNotObtained {
		log.Println("not obtained")
	} else if err != nil {
		logrus.Fatal(err)
	}
	defer lock.Release(ctx)
	work()
}

func work() {}
