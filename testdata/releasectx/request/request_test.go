package request

import (
	"net/http"
	"testing"
)

// Near miss: test files are left alone unless -tests is set.
func TestRebuild(t *testing.T) {
	s := &server{}
	r, _ := http.NewRequest("GET", "/", nil)
	defer s.rdb.Del(r.Context(), "lock:feed")
}
