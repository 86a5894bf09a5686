package lock

import (
	"errors"
	"testing"
	"time"
)

func TestHashSlotMatchesClusterSpec(t *testing.T) {
	if got := crc16("123456789"); got != 0x31C3 {
		t.Fatalf("crc16 check value = %#x", got)
	}
	cases := map[string]uint16{"foo": 12182, "bar": 5061, "{user1000}.following": hashSlot("user1000")}
	for key, want := range cases {
		if got := hashSlot(key); got != want {
			t.Errorf("hashSlot(%q) = %d, want %d", key, got, want)
		}
	}
	if hashSlot("{}a") != crc16("{}a")%16384 || hashSlot("a{b") != crc16("a{b")%16384 {
		t.Errorf("empty or unclosed tags must hash the whole key")
	}
}

func TestSiblingKeySharesSlot(t *testing.T) {
	cases := map[string]string{
		"lock:{sku42}": "lock:{sku42}:fence",
		"feed":         "{feed}:fence",
		"a{b":          "{a{b}:fence",
	}
	for key, want := range cases {
		got := siblingKey(key, "fence")
		if got != want {
			t.Errorf("siblingKey(%q) = %q, want %q", key, got, want)
		}
		if hashSlot(got) != hashSlot(key) {
			t.Errorf("%q and %q in different slots", key, got)
		}
	}
}

// TestNoSiblingForEmptyTagKey: a key whose first tag is empty ({}) hashes
// whole, and wrapping it in braces makes a tag of its start instead, so
// no sibling shares its slot; a fenced Obtain refuses it before sending.
func TestNoSiblingForEmptyTagKey(t *testing.T) {
	const key = "a{}b"
	if k := siblingKey(key, "fence"); hashSlot(k) == hashSlot(key) {
		t.Fatalf("%q shares the slot of %q; the case needs a key whose sibling cannot", k, key)
	}
	o := &options{}
	o.init([]Option{WithFencing()})
	if err := checkObtain(inProcess{}, key, time.Second, o); !errors.Is(err, ErrCrossSlot) {
		t.Errorf("fenced Obtain of %q: %v, want ErrCrossSlot", key, err)
	}
}
