package idempotency

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"
)

// Jobs is a working set whose entries, under jobKey, are records it
// decodes, and whose reclaim lock, under reclaimingKey, is a lock of
// another family in the same type (kafka-batch-go's workset.Store): the
// entries' decoding says nothing of the lock, whose plain DEL reports.
type Jobs struct{ client redis.Cmdable }

type entry struct {
	Consumer string `json:"c"`
	Fence    string `json:"f"`
}

func jobKey(id string) string        { return "work:job:" + id }
func reclaimingKey(id string) string { return "work:reclaiming:" + id }

func (j *Jobs) Entry(ctx context.Context, id string) (*entry, error) {
	raw, err := j.client.Get(ctx, jobKey(id)).Bytes()
	if err != nil {
		return nil, err
	}
	var e entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, err
	}
	return &e, nil
}

func (j *Jobs) BeginReclaim(ctx context.Context, id string) (bool, error) {
	return j.client.SetNX(ctx, reclaimingKey(id), "1", 30*time.Second).Result()
}

// Must report: the reclaim lock's release.
func (j *Jobs) AbortReclaim(ctx context.Context, id string) error {
	return j.client.Del(ctx, reclaimingKey(id)).Err() // want "DEL of lock key `reclaimingKey\\(id\\)`"
}
