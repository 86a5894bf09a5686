package lock

import (
	"testing"
	"time"
)

// bounded hands a late reply to its handler as soon as it stops waiting,
// so the reply can come before Obtain's goroutine records the abandoned
// attempt: it waits for Obtain's outcome all the same.
func TestLateReplyBeforeAbandon(t *testing.T) {
	var lt lateAttempt
	removed := make(chan bool, 1)
	go lt.reply(true, func() { removed <- true })
	time.Sleep(10 * time.Millisecond)
	select {
	case <-removed:
		t.Fatal("the token was removed before Obtain settled")
	default:
	}
	lt.abandon()
	lt.settle(nil)
	select {
	case <-removed:
	case <-time.After(5 * time.Second):
		t.Fatal("the late reply of a failed Obtain did not remove its token")
	}
	select {
	case <-lt.handled:
	case <-time.After(5 * time.Second):
		t.Fatal("the late reply was not marked handled")
	}
}
