// Package paynotify pins a payment callback's dedupe marker: the handler
// takes "pay:notify:lock:<order>" with SetNX of "1" for a minute, answers
// "success" on a miss, and deletes the marker only on the paths where the
// notification could not be processed (the order is missing, the amount
// does not match, the dispatch failed), so that the gateway's retry is
// processed; the success path keeps it for its minute. Those deletes
// undo the handler's own fresh claim: silent. The twins release a lock
// held across the work on the success path too, and delete after the
// take missed: both are reported.
package paynotify

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

type Notice struct {
	OrderNo  string
	Amount   string
	Provider string
}

type Order struct {
	ID     int64
	Amount string
	Cents  string
}

type Writer interface{ String(code int, s string) }

func findOrder(context.Context, string) (Order, error) { return Order{}, nil }
func dispatch(context.Context, Notice, Order) error    { return nil }

var errMissing = errors.New("missing")

func HandleNotify(ctx context.Context, rdb *redis.Client, w Writer, n Notice) {
	lockKey := "pay:notify:lock:" + n.OrderNo
	ok, err := rdb.SetNX(ctx, lockKey, "1", 60*time.Second).Result()
	if err != nil || !ok {
		w.String(200, "success")
		return
	}
	order, err := findOrder(ctx, n.OrderNo)
	if err != nil {
		rdb.Del(ctx, lockKey)
		w.String(200, "fail")
		return
	}
	switch n.Provider {
	case "paypal":
		if n.Amount != order.Amount {
			rdb.Del(ctx, lockKey)
			w.String(200, "fail")
			return
		}
	case "stripe":
		if n.Amount != order.Cents {
			rdb.Del(ctx, lockKey)
			w.String(200, "fail")
			return
		}
	}
	if err := dispatch(ctx, n, order); err != nil {
		rdb.Del(ctx, lockKey)
		w.String(200, "fail")
		return
	}
	w.String(200, "success")
}

// The gateway's other callback takes the same family of markers and
// undoes it the same way: each handler's delete is its own take's undo,
// not a release of a lock another function holds.
func HandleEpayNotify(ctx context.Context, rdb *redis.Client, w Writer, n Notice) {
	lockKey := "pay:notify:lock:" + n.OrderNo
	ok, err := rdb.SetNX(ctx, lockKey, "1", 60*time.Second).Result()
	if err != nil || !ok {
		w.String(200, "success")
		return
	}
	order, err := findOrder(ctx, n.OrderNo)
	if err == nil {
		err = dispatch(ctx, n, order)
	}
	if err != nil {
		rdb.Del(ctx, lockKey)
		w.String(200, "fail")
		return
	}
	w.String(200, "success")
}

// The same marker per tenant, with the take's reply tested apart.
func HandleTenantNotify(ctx context.Context, rdb *redis.Client, w Writer, tenant string, n Notice) {
	lockKey := "pay:notify:tenant:" + tenant + ":lock:" + n.OrderNo
	if ok, _ := rdb.SetNX(ctx, lockKey, "1", time.Minute).Result(); !ok {
		w.String(200, "success")
		return
	}
	order, err := findOrder(ctx, n.OrderNo)
	if err != nil {
		if errors.Is(err, errMissing) {
			w.String(200, "success")
			return
		}
		rdb.Del(ctx, lockKey)
		w.String(200, "fail")
		return
	}
	if err := dispatch(ctx, n, order); err != nil {
		rdb.Del(ctx, lockKey)
		w.String(200, "fail")
		return
	}
	w.String(200, "success")
}

// Reported: the lock is held across the dispatch and given back on the
// success path too, so it is a lock and its release after the dispatch
// needs an owner check. The exits on the guard clauses right after the
// take delete the key the take set a moment before (a minute's lease
// cannot lapse across a lookup): the defect is reported once, there.
func HandleSettle(ctx context.Context, rdb *redis.Client, w Writer, n Notice) {
	lockKey := "pay:settle:lock:" + n.OrderNo
	ok, err := rdb.SetNX(ctx, lockKey, "1", 60*time.Second).Result()
	if err != nil || !ok {
		w.String(200, "busy")
		return
	}
	order, err := findOrder(ctx, n.OrderNo)
	if err != nil {
		rdb.Del(ctx, lockKey)
		w.String(200, "fail")
		return
	}
	if n.Amount != order.Amount {
		rdb.Del(ctx, lockKey)
		w.String(200, "fail")
		return
	}
	err = dispatch(ctx, n, order)
	rdb.Del(ctx, lockKey) // want "DEL of lock key `lockKey` without an owner check"
	if err != nil {
		w.String(200, "fail")
		return
	}
	w.String(200, "success")
}

// Reported: the delete runs when the take missed, on another's key.
func HandleRetry(ctx context.Context, rdb *redis.Client, w Writer, n Notice) {
	lockKey := "pay:retry:lock:" + n.OrderNo
	ok, err := rdb.SetNX(ctx, lockKey, "1", 60*time.Second).Result()
	if err != nil {
		w.String(200, "fail")
		return
	}
	if !ok {
		rdb.Del(ctx, lockKey) // want "DEL of lock key `lockKey` without an owner check"
		w.String(200, "retry")
		return
	}
	order, _ := findOrder(ctx, n.OrderNo)
	_ = dispatch(ctx, n, order)
	w.String(200, "success")
}
