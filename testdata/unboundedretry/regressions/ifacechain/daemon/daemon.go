// Package daemon retries the ledger's lock through its interface, two
// packages away from the SETNX.
package daemon

import (
	"context"
	"log"
	"time"

	"locklint.test/unboundedretry/regressions/ifacechain/ledger"
)

type Deposits struct{ ledger ledger.Manager }

func (d *Deposits) lock(account, coin string) (bool, error) {
	for { // want "lock acquisition retried with no bound"
		if ok, err := d.ledger.AcquireLock(account, coin); !ok || err != nil {
			log.Println("acquire lock failed, retrying", account, coin)
			continue
		}
		return true, nil
	}
}

func (d *Deposits) Credit(account string) error {
	for { // want "lock acquisition retried with no bound"
		if ok, err := d.ledger.AcquireLock(account, "BTC"); err == nil && ok {
			break
		}
	}
	defer d.ledger.ReleaseLock(account, "BTC")
	return nil
}

// Near misses: the same acquire bounded by the context, and a loop that
// polls a read.
func (d *Deposits) lockCtx(ctx context.Context, account, coin string) (bool, error) {
	for {
		if ok, err := d.ledger.AcquireLock(account, coin); ok && err == nil {
			return true, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (d *Deposits) waitSeen(account string) {
	for {
		if ok, _ := d.ledger.Seen(account); ok {
			return
		}
		time.Sleep(time.Second)
	}
}
