package lock

import (
	"context"
	"sync"
	"time"
)

// A hub is the subscription through which the waiters of one client hear
// that a lock was reserved for them: one pub/sub connection per client
// (per hash slot on a Cluster client, whose shard channels are served by
// the slot's master and cannot share a subscription across slots). It
// subscribes to a key's channel while a queue of the process waits on the
// server for that key, and closes its connection when none does.
type hub struct {
	key     hubKey
	client  Client
	sharded bool
	kick    chan struct{}

	mu        sync.Mutex
	listeners map[string]map[*waitQueue]struct{} // channel -> queues
}

type hubKey struct {
	client any
	slot   int // -1 on a client that is not a Cluster client
}

var hubs = struct {
	sync.Mutex
	m map[hubKey]*hub
}{m: map[hubKey]*hub{}}

// listen adds wq to the hub of its client, starting the hub if needed.
func listen(wq *waitQueue) *hub {
	k := hubKey{client: wq.client, slot: -1}
	if !registrable(wq.client) {
		k.client = wq
	}
	if wq.sharded {
		k.slot = int(hashSlot(wq.channel))
	}
	hubs.Lock()
	h := hubs.m[k]
	if h == nil {
		h = &hub{key: k, client: wq.client, sharded: wq.sharded, kick: make(chan struct{}, 1), listeners: map[string]map[*waitQueue]struct{}{}}
		hubs.m[k] = h
		go h.run()
	}
	h.mu.Lock()
	qs := h.listeners[wq.channel]
	if qs == nil {
		qs = map[*waitQueue]struct{}{}
		h.listeners[wq.channel] = qs
	}
	qs[wq] = struct{}{}
	h.mu.Unlock()
	hubs.Unlock()
	h.poke()
	return h
}

func (h *hub) unlisten(wq *waitQueue) {
	h.mu.Lock()
	if qs := h.listeners[wq.channel]; qs != nil {
		delete(qs, wq)
		if len(qs) == 0 {
			delete(h.listeners, wq.channel)
		}
	}
	h.mu.Unlock()
	h.poke()
}

func (h *hub) poke() {
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

func (h *hub) wanted() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	chans := make([]string, 0, len(h.listeners))
	for c := range h.listeners {
		chans = append(chans, c)
	}
	return chans
}

// wake tells the queues listening on channel; payload is the entry a lock
// was reserved for, or "" after a (re)subscription, when a message may
// have been missed.
func (h *hub) wake(channel, payload string) {
	h.mu.Lock()
	qs := make([]*waitQueue, 0, len(h.listeners[channel]))
	for wq := range h.listeners[channel] {
		qs = append(qs, wq)
	}
	h.mu.Unlock()
	for _, wq := range qs {
		wq.woken(payload)
	}
}

// run owns the hub's PubSub: it follows the channels wanted, delivers
// messages, and closes the connection and ends when no queue listens.
func (h *hub) run() {
	ctx := context.Background()
	var (
		ps         Subscription
		msgs       <-chan Message
		subscribed = map[string]bool{}
	)
	for {
		want := h.wanted()
		if len(want) == 0 {
			hubs.Lock()
			h.mu.Lock()
			idle := len(h.listeners) == 0
			if idle && hubs.m[h.key] == h {
				delete(hubs.m, h.key)
			}
			h.mu.Unlock()
			hubs.Unlock()
			if idle {
				if ps != nil {
					_ = ps.Close()
				}
				return
			}
			continue
		}
		var add []string
		keep := map[string]bool{}
		for _, c := range want {
			keep[c] = true
			if !subscribed[c] {
				add = append(add, c)
			}
		}
		var drop []string
		for c := range subscribed {
			if !keep[c] {
				drop = append(drop, c)
			}
		}
		switch {
		case ps == nil:
			// A Cluster client picks the node by the first channel, so the
			// connection is opened with its channels.
			var err error
			if ps, err = h.client.Subscribe(ctx, h.sharded, add...); err != nil {
				// The waiters' attempts fail meanwhile, or see the lock
				// free at their next check.
				ps = nil
				h.pause()
				continue
			}
			msgs = ps.Messages()
		case len(add) > 0:
			_ = ps.Subscribe(ctx, add...)
		}
		if len(drop) > 0 {
			_ = ps.Unsubscribe(ctx, drop...)
		}
		subscribed = keep

		select {
		case <-h.kick:
		case m, ok := <-msgs:
			if !ok {
				// Closed under us (the client was closed): start over, not
				// in a busy loop; the waiters' attempts fail meanwhile.
				_ = ps.Close()
				ps, msgs, subscribed = nil, nil, map[string]bool{}
				h.pause()
				continue
			}
			if m.Subscribed {
				h.wake(m.Channel, "")
			} else {
				h.wake(m.Channel, m.Payload)
			}
		}
	}
}

// pause waits before the hub opens a connection again, so that a client
// that cannot subscribe (closed, or its server down) is not asked in a
// busy loop.
func (h *hub) pause() {
	t := time.NewTimer(100 * time.Millisecond)
	select {
	case <-h.kick:
	case <-t.C:
	}
	t.Stop()
}
