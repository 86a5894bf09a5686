// Package librarylock pins another lock library's acquire whose result
// is dropped: redsync's Lock reports a lock it did not get as an error,
// and the work runs beside the holder: reported. The near miss returns
// the error before the work.
package librarylock

import (
	"github.com/go-redsync/redsync/v4"
)

func refill(mtx *redsync.Mutex, load func() error) error {
	mtx.Lock() // want "error of `mtx.Lock` discarded"
	defer mtx.Unlock()
	return load()
}

func refillChecked(mtx *redsync.Mutex, load func() error) error {
	if err := mtx.Lock(); err != nil {
		return err
	}
	defer mtx.Unlock()
	return load()
}
