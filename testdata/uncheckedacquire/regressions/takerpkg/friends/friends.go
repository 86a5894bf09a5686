// Package friends writes a friend application under kv's lock.
package friends

import "locklint.test/uncheckedacquire/regressions/takerpkg/kv"

// Must report: the bool is dropped, the application is written whether
// or not the lock was taken, and Unlock then deletes the other request's
// lock.
func Apply(uid, obj string, add func() error) error {
	key := uid + obj
	kv.Lock(key, 1) // want "result of `Lock` discarded"
	err := add()
	kv.Unlock(key)
	return err
}

// Near miss (silent): the bool decides.
func ApplyChecked(uid, obj string, add func() error) error {
	key := uid + obj
	if !kv.Lock(key, 1) {
		return nil
	}
	defer kv.Unlock(key)
	return add()
}

// Near miss (silent): a marker's bool dropped, with no release after it.
func Seen(id string, add func() error) error {
	kv.Mark(id)
	return add()
}
