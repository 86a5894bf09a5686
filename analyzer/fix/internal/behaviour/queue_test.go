package behaviour_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func loadScript(t *testing.T, name string) *redis.Script {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "lock", "scripts", name))
	if err != nil {
		t.Fatal(err)
	}
	return redis.NewScript(string(src))
}

// TestServerQueueServesProcessesInOrder drives the scripts step by step as
// waiting processes and releasers would: entries are served in the order
// the server received them, a release reserves the lock for the head and
// publishes its entry, a later entry leaves a reserved or free lock to the
// head, a release hands the lock to its own process's next waiter only
// when nobody else is queued first, re-sent copies change nothing, and an
// entry that leaves passes a lock reserved for it on.
func TestServerQueueServesProcessesInOrder(t *testing.T) {
	acquire := loadScript(t, "acquire.lua")
	handoff := loadScript(t, "handoff.lua")
	leave := loadScript(t, "leave.lua")
	eachWakeServer(t, func(t *testing.T, s wakeTarget) {
		ctx := ctxT(t)
		const (
			key     = "lock:{q}"
			queue   = "lock:{q}:queue"
			channel = "lock:{q}:wake"
			grant   = 500 // ms
		)
		keys := []string{key, queue}
		try := func(token, entry string) []int64 {
			t.Helper()
			res, err := acquire.Run(ctx, s.client, keys, token, 10000, "0", entry, grant, 5000, channel, "p").Int64Slice()
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		release := func(token, next, own string) []int64 {
			t.Helper()
			res, err := handoff.Run(ctx, s.client, keys, token, next, 10000, own, grant, 5000, channel, "p").Int64Slice()
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		leaves := func(entry string) int64 {
			t.Helper()
			n, err := leave.Run(ctx, s.client, keys, entry, grant, 5000, channel, "p").Int64()
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		queued := func() []string {
			t.Helper()
			raw, err := s.admin.Get(ctx, queue).Result()
			if err == redis.Nil {
				return nil
			}
			var q []string
			if err := json.Unmarshal([]byte(raw), &q); err != nil {
				t.Fatalf("queue %q: %v", raw, err)
			}
			return q
		}
		owner := func() string { return s.admin.Get(ctx, key).Val() }
		expect := func(step string, got []int64, want ...int64) {
			t.Helper()
			if !slices.Equal(got, want) {
				t.Fatalf("%s: got %v, want %v (lock %q, queue %v)", step, got, want, owner(), queued())
			}
		}
		sub := s.admin.Subscribe(ctx, channel)
		defer sub.Close()
		if _, err := sub.Receive(ctx); err != nil { // the subscription's confirmation
			t.Fatal(err)
		}
		published := func(want string) {
			t.Helper()
			msg, err := sub.ReceiveTimeout(ctx, time.Second)
			if err != nil {
				t.Fatalf("no wake-up for %s: %v", want, err)
			}
			if m, ok := msg.(*redis.Message); !ok || m.Payload != want {
				t.Fatalf("published %v, want %s", msg, want)
			}
		}

		s.admin.Set(ctx, key, "holder", 10*time.Second)
		if res := try("tok-a", "A"); len(res) != 2 || res[0] != 0 || res[1] < 9000 {
			t.Fatalf("A behind a holder: got %v, want 0 and the holder's PTTL", res)
		}
		try("tok-b", "B")
		try("tok-a", "A") // a re-sent copy, or A asking again
		if q := queued(); !slices.Equal(q, []string{"A", "B"}) {
			t.Fatalf("queue %v, want [A B]", q)
		}

		expect("release with A and B queued", release("holder", "", ""), 3)
		if owner() != "A" {
			t.Fatalf("lock %q, want it reserved for A", owner())
		}
		published("A")
		if pttl := s.admin.PTTL(ctx, key).Val(); pttl > grant*time.Millisecond {
			t.Errorf("reservation for %s, want at most %d ms", pttl, grant)
		}
		if res := try("tok-b", "B"); res[0] != 0 || res[1] > grant {
			t.Fatalf("B while the lock is reserved for A: got %v, want 0 and at most the reservation", res)
		}
		expect("A claims", try("tok-a", "A"), 1)
		if owner() != "tok-a" || !slices.Equal(queued(), []string{"B"}) {
			t.Fatalf("after A's claim: lock %q, queue %v", owner(), queued())
		}

		// B is queued before A's process's next waiter: B goes first.
		expect("A hands over with B queued", release("tok-a", "tok-a2", ""), 3)
		published("B")
		if owner() != "B" || queued() != nil {
			t.Fatalf("lock %q, queue %v; want the lock reserved for B and no queue", owner(), queued())
		}
		expect("B claims", try("tok-b", "B"), 1)

		// Nobody else queued: B's process's next waiter gets the lock
		// straight from the release, and a re-sent copy is the same.
		expect("B hands over in process", release("tok-b", "tok-b2", ""), 1, 0)
		expect("a re-sent hand-off", release("tok-b", "tok-b2", ""), 1, 0)
		if owner() != "tok-b2" {
			t.Fatalf("lock %q, want tok-b2", owner())
		}
		expect("a release by a non-owner", release("nobody", "", ""), 0)

		// A process whose entry heads the queue goes before later entries.
		try("tok-c", "C")
		try("tok-d", "D")
		expect("C's process releases", release("tok-b2", "tok-c2", "C"), 1, 0)
		if owner() != "tok-c2" || !slices.Equal(queued(), []string{"D"}) {
			t.Fatalf("lock %q, queue %v; want tok-c2 and [D]", owner(), queued())
		}

		// A release that does not know the queue frees the lock: the next
		// entry to ask reserves it for the head, here itself.
		try("tok-e", "E")
		s.admin.Del(ctx, key)
		expect("E finds the lock free behind D", try("tok-e", "E"), 0, grant)
		published("D")
		if owner() != "D" || !slices.Equal(queued(), []string{"E"}) {
			t.Fatalf("lock %q, queue %v; want it reserved for D, [E]", owner(), queued())
		}

		// D gives up: the reservation goes on to E; E gives up too.
		if n := leaves("D"); n != 1 || owner() != "E" {
			t.Fatalf("D leaves: %d, lock %q; want it passed on to E", n, owner())
		}
		published("E")
		if n := leaves("E"); n != 1 || s.admin.Exists(ctx, key, queue).Val() != 0 {
			t.Fatalf("E leaves: %d, lock %q, queue %v; want both gone", n, owner(), queued())
		}
		if n := leaves("E"); n != 0 {
			t.Errorf("leaving twice passed %d reservations on", n)
		}
	})
}
