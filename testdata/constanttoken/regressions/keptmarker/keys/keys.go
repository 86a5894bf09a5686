// Package keys makes the shop's Redis keys.
package keys

func OrderPaidLockKey(order string) string { return "order_paid_lock:" + order }

func OrderSyncLockKey(order string) string { return "order_sync_lock:" + order }
