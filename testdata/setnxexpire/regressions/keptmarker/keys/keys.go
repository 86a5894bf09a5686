// Package keys makes the shop's Redis keys.
package keys

func OrderPaidLockKey(order string) string { return "order_paid_lock:" + order }

func WebhookProcessedKey(event string) string { return "paypal_webhook_processed:" + event }

func OrderSyncLockKey(order string) string { return "order_sync_lock:" + order }
