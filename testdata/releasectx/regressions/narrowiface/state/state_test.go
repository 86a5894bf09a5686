package state

import (
	"context"
	"testing"
)

type fakeRedis struct{ locked map[int]bool }

func (f *fakeRedis) Lock(ctx context.Context, cid int) (string, bool, error) {
	if f.locked[cid] {
		return "", false, nil
	}
	f.locked[cid] = true
	return "t", true, nil
}

func (f *fakeRedis) Unlock(ctx context.Context, cid int, token string) error {
	delete(f.locked, cid)
	return nil
}

func TestReport(t *testing.T) {
	m := &Manager{redis: &fakeRedis{locked: map[int]bool{}}, apply: func(context.Context, int) error { return nil }}
	if err := m.Report(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
}
