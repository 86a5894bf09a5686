// Package requestmarker pins one message's record: a message's payload
// is kept for replay under msg:payload:<message id>, written with SETNX
// and its EXPIRE in one pipeline. Only redeliveries of that message name
// the key; the EXPIRE refreshes its record, and takes nothing from
// anyone. The twin extends a lock a whole room contends for.
package requestmarker

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Frame struct {
	MessageId string
	RoomId    string
}

func MessagePayloadKey(messageID string) string { return "msg:payload:" + messageID }

// Near miss (silent): one message's record.
func Remember(ctx context.Context, rdb *redis.Client, frame *Frame, payload []byte) error {
	pipe := rdb.TxPipeline()
	pipe.SetNX(ctx, MessagePayloadKey(frame.MessageId), payload, time.Hour)
	pipe.Expire(ctx, MessagePayloadKey(frame.MessageId), time.Hour)
	_, err := pipe.Exec(ctx)
	return err
}

// TakeRoom lets one writer per room in.
func TakeRoom(ctx context.Context, rdb *redis.Client, frame *Frame, token string) (bool, error) {
	return rdb.SetNX(ctx, "room:lock:"+frame.RoomId, token, time.Minute).Result()
}

// Must report: a room's lock extended whoever holds it.
func KeepRoom(ctx context.Context, rdb *redis.Client, frame *Frame) error {
	return rdb.Expire(ctx, "room:lock:"+frame.RoomId, time.Minute).Err() // want "EXPIRE of lock key"
}
