// Package ledger keeps balances and takes a per-account lock through the
// store's Service.
package ledger

import (
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/unboundedretry/regressions/ifacechain/store"
)

var held = []byte("true")

type Manager interface {
	AcquireLock(account, coin string) (bool, error)
	ReleaseLock(account, coin string) error
	// Seen is a read; a loop around it is not an acquire retry.
	Seen(account string) (bool, error)
}

type manager struct{ kv store.Service }

func New(cluster *redis.ClusterClient) Manager { return &manager{kv: store.NewService(cluster)} }

func (m *manager) AcquireLock(account, coin string) (bool, error) {
	return m.kv.SetNX("account-lock:"+account+":"+coin, held, 10*time.Second)
}

func (m *manager) ReleaseLock(account, coin string) error {
	return m.kv.Del("account-lock:" + account + ":" + coin)
}

func (m *manager) Seen(account string) (bool, error) {
	v, err := m.kv.Get("seen:" + account)
	return v != "", err
}
