package lockmodel

import "testing"

func TestHashSlot(t *testing.T) {
	if got := crc16("123456789"); got != 0x31C3 {
		t.Fatalf("crc16 check value = %#x, want 0x31c3", got)
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"lock:{sku42}", "fence:{sku42}", true},
		{"{sku42}", "sku42", true},
		{"lock:{}x", "lock:{}x", true},
		{"lock:feed", "fence:feed", false},
		{"a{}b", "b{}a", false},
	} {
		if got := hashSlot(tc.a) == hashSlot(tc.b); got != tc.same {
			t.Errorf("hashSlot(%q) == hashSlot(%q): %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}
