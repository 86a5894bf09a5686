package behaviour_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
)

func TestObtainStoresTokenWithLease(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		l, err := fix.Obtain(ctx, s.client, "feed", 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.admin.Get(ctx, "feed").Val(); got != l.Token() {
			t.Errorf("value = %q, want token %q", got, l.Token())
		}
		if pttl := s.admin.PTTL(ctx, "feed").Val(); pttl <= 0 || pttl > 5*time.Second {
			t.Errorf("PTTL = %s, want (0, 5s]", pttl)
		}
		if len(l.Token()) < 22 {
			t.Errorf("token %q shorter than 128 bits", l.Token())
		}
		if l.Key() != "feed" || l.Fence() != 0 {
			t.Errorf("Key, Fence = %q, %d", l.Key(), l.Fence())
		}
		if left := time.Until(l.Until()); left <= 0 || left > 5*time.Second {
			t.Errorf("Until in %s", left)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if n := s.admin.Exists(ctx, "feed").Val(); n != 0 {
			t.Errorf("key survives release")
		}
	})
}

func TestObtainGivesFreshTokenPerAcquisition(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		seen := map[string]bool{}
		for range 5 {
			l, err := fix.Obtain(ctx, s.client, "feed", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if seen[l.Token()] {
				t.Fatalf("token %q reused", l.Token())
			}
			seen[l.Token()] = true
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func TestObtainHeldKeyMakesOneAttemptWithoutDeadline(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := context.Background()
		holder, err := fix.Obtain(ctx, s.client, "feed", 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Release(ctx)
		before := s.sent.Load()
		var attempts int
		obs := &fix.Observer{Acquired: func(_ context.Context, _ string, _ time.Duration, n int, _ error) { attempts = n }}
		_, err = fix.Obtain(ctx, s.client, "feed", time.Second, fix.WithObserver(obs))
		if !errors.Is(err, fix.ErrNotObtained) {
			t.Fatalf("err = %v, want ErrNotObtained", err)
		}
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			t.Errorf("err = %v matches a context error", err)
		}
		// One attempt: SET NX PX, and the GET that tells another owner
		// from an earlier copy of this attempt.
		if attempts != 1 || s.sent.Load()-before != 2 {
			t.Errorf("attempts = %d, commands = %d; want 1, 2", attempts, s.sent.Load()-before)
		}
	})
}

func TestObtainGivesUpAtDeadlineMatchingContextError(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := context.Background()
		holder, err := fix.Obtain(ctx, s.client, "feed", 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Release(ctx)
		wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err = fix.Obtain(wctx, s.client, "feed", time.Second, fix.WithWait())
		if !errors.Is(err, fix.ErrNotObtained) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want ErrNotObtained and DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("gave up after %s", d)
		}

		_, err = fix.Obtain(ctx, s.client, "feed", time.Second, fix.WithMaxWait(200*time.Millisecond))
		if !errors.Is(err, fix.ErrNotObtained) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("max wait: err = %v, want ErrNotObtained and DeadlineExceeded", err)
		}

		_, err = fix.Obtain(ctx, s.client, "feed", time.Second, fix.WithMaxWait(10*time.Second),
			fix.WithBackoff(fix.Backoff{Base: time.Millisecond, Cap: 2 * time.Millisecond, MaxAttempts: 3}))
		if !errors.Is(err, fix.ErrNotObtained) || errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("max attempts: err = %v, want ErrNotObtained alone", err)
		}
	})
}

// TestAmbientDeadlineMakesOneAttempt: a deadline set for the whole request
// does not turn a try into a poll; waiting takes WithWait or WithMaxWait.
func TestAmbientDeadlineMakesOneAttempt(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		holder, err := fix.Obtain(ctx, s.client, "feed", 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Release(ctx)
		before := s.sent.Load()
		start := time.Now()
		_, err = fix.Obtain(ctx, s.client, "feed", time.Second)
		if !errors.Is(err, fix.ErrNotObtained) || errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want ErrNotObtained after one attempt", err)
		}
		if n := s.sent.Load() - before; n != 2 || time.Since(start) > time.Second {
			t.Errorf("sent %d commands in %s, want one attempt (SET NX PX and GET)", n, time.Since(start))
		}
		before = s.sent.Load()
		if _, err := fix.Obtain(context.Background(), s.client, "feed", time.Second, fix.WithWait()); !errors.Is(err, fix.ErrInvalidOption) {
			t.Errorf("WithWait without a deadline: %v, want ErrInvalidOption", err)
		}
		if n := s.sent.Load() - before; n != 0 {
			t.Errorf("WithWait without a deadline sent %d commands", n)
		}
	})
}

func TestObtainWaitsForReleasedLock(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		holder, err := fix.Obtain(ctx, s.client, "feed", 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			time.Sleep(100 * time.Millisecond)
			holder.Release(ctx)
		}()
		l, err := fix.Obtain(ctx, s.client, "feed", time.Second, fix.WithMaxWait(10*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if n := s.admin.Exists(ctx, "{feed}:turn").Val(); n != 0 {
			t.Errorf("waiter turn left behind")
		}
	})
}

func TestBadInputFailsBeforeSending(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := context.Background()
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		cases := []struct {
			name string
			run  func() error
			want error
		}{
			{"empty key", func() error { _, err := fix.Obtain(ctx, s.client, "", time.Second); return err }, fix.ErrInvalidKey},
			{"zero ttl", func() error { _, err := fix.Obtain(ctx, s.client, "k", 0); return err }, fix.ErrInvalidTTL},
			{"negative ttl", func() error { _, err := fix.Obtain(ctx, s.client, "k", -time.Second); return err }, fix.ErrInvalidTTL},
			{"sub-millisecond ttl", func() error { _, err := fix.Obtain(ctx, s.client, "k", time.Microsecond); return err }, fix.ErrInvalidTTL},
			{"nil client", func() error { _, err := fix.Obtain(ctx, nil, "k", time.Second); return err }, fix.ErrNilClient},
			{"cancelled context", func() error { _, err := fix.Obtain(cancelled, s.client, "k", time.Second); return err }, context.Canceled},
			{"cross-slot fence key", func() error {
				_, err := fix.Obtain(ctx, s.client, "lock:{a}", time.Second, fix.WithFenceKey("fence:{b}"))
				return err
			}, fix.ErrCrossSlot},
			{"fence key equals lock key", func() error {
				_, err := fix.Obtain(ctx, s.client, "lock:{a}", time.Second, fix.WithFenceKey("lock:{a}"))
				return err
			}, fix.ErrInvalidKey},
			{"bad backoff", func() error {
				_, err := fix.Obtain(ctx, s.client, "k", time.Second, fix.WithBackoff(fix.Backoff{}))
				return err
			}, fix.ErrInvalidOption},
			{"bad watchdog", func() error { _, err := fix.Obtain(ctx, s.client, "k", time.Second, fix.WithWatchdog(0)); return err }, fix.ErrInvalidOption},
			{"nil fn", func() error { return fix.Do(ctx, s.client, "k", time.Second, nil) }, fix.ErrInvalidOption},
			{"release empty token", func() error { return fix.Release(ctx, s.client, "k", "") }, fix.ErrInvalidToken},
			{"release empty key", func() error { return fix.Release(ctx, s.client, "", "t") }, fix.ErrInvalidKey},
			{"release nil client", func() error { return fix.Release(ctx, nil, "k", "t") }, fix.ErrNilClient},
			{"refresh zero ttl", func() error { return fix.Refresh(ctx, s.client, "k", "t", 0) }, fix.ErrInvalidTTL},
			{"refresh cancelled", func() error { return fix.Refresh(cancelled, s.client, "k", "t", time.Second) }, context.Canceled},
		}
		for _, c := range cases {
			before := s.sent.Load()
			err := c.run()
			if !errors.Is(err, c.want) {
				t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
			}
			if n := s.sent.Load() - before; n != 0 {
				t.Errorf("%s: sent %d commands", c.name, n)
			}
		}
	})
}
