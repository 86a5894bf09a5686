// Code generated from ../fixrueidis by go generate; DO NOT EDIT.
// sha256 of the rest: b3f7f63eb61ca4b558b7ae9516d9a9513b635a4745dbcdf48d5e936aadca8ff2

// Package fixvalkey makes a lock.Client of a valkey-go client, so that
// package lock's locks run on it:
//
//	c := fixvalkey.Client(vc) // vc from valkey.NewClient
//	l, err := lock.Obtain(ctx, c, "lock:{sku42}", 30*time.Second, lock.WithFencing())
//	if err != nil {
//		return err // errors.Is(err, lock.ErrNotObtained): someone else has it
//	}
//	defer l.Release(ctx)
//	err = l.Refresh(ctx, 30*time.Second) // or lock.WithWatchdog
//
// It serves standalone, sentinel and Cluster clients. Commands end at
// their context's deadline (valkey-go bounds each one by it), so the
// library calls the client directly. valkey-go re-sends none of the
// library's commands after a lost reply; Obtain's own retries and its
// clean-up cover that. The module requires valkey-go and package lock only.
package fixvalkey
