// Package webhook processes each delivery once through the event log,
// and renews a worker's lease through Lease.
package webhook

import (
	"context"
	"time"

	"locklint.test/plainpexpire/regressions/idemcommit/events"
)

type Handler struct {
	log   *events.Log
	lease *events.Lease
	run   func(ctx context.Context, id string) (string, error)
}

// Silent: the done record written over the processing one.
func (h *Handler) Deliver(ctx context.Context, id string) error {
	ok, err := h.log.Claim(ctx, "event:"+id, 24*time.Hour)
	if err != nil || !ok {
		return err
	}
	res, err := h.run(ctx, id)
	if err != nil {
		return err
	}
	return h.log.Finish(ctx, "event:"+id, res, 24*time.Hour)
}

// Must report: a renewal that overwrites whoever holds the lease.
func (h *Handler) Work(ctx context.Context, id, token string) error {
	ok, err := h.lease.Take(ctx, "lease:"+id, token, 30*time.Second)
	if err != nil || !ok {
		return err
	}
	if _, err := h.run(ctx, id); err != nil {
		return err
	}
	return h.lease.Extend(ctx, "lease:"+id, token, 30*time.Second) // want `SET of lock key .*lease:.* without NX`
}
