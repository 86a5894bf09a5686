// Package cluster pins a master lease taken through a cache package's
// SetNX helper with the node's id and renewed through its Expire helper,
// a plain EXPIRE, where the cache package's unexported helpers take keys
// already prefixed: a master that paused past the lease extends the key
// the next master took. The near miss renews a node's own heartbeat
// record the same way.
package cluster

import (
	"time"

	"locklint.test/plainpexpire/regressions/innerhelper/cache"
)

const (
	PREEMPTION_LOCK_KEY = "cluster-master-preemption-lock"
	heartbeatKey        = "cluster-node-heartbeat"
)

type Cluster struct {
	id       string
	leaseTTL time.Duration
}

func (c *Cluster) lockMaster() (bool, error) {
	return cache.SetNX(PREEMPTION_LOCK_KEY, c.id, c.leaseTTL)
}

// Must report: the renewal does not check that this node still holds it.
func (c *Cluster) updateMaster() error {
	if _, err := cache.Expire(PREEMPTION_LOCK_KEY, c.leaseTTL); err != nil { // want "EXPIRE of lock key"
		return err
	}
	return nil
}

// Near miss (silent): a node's own record, written and kept alive.
func (c *Cluster) heartbeat() error {
	if err := cache.Store(heartbeatKey+":"+c.id, time.Now().Unix(), time.Minute); err != nil {
		return err
	}
	_, err := cache.Expire(heartbeatKey+":"+c.id, time.Minute)
	return err
}
