package fixotel_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/locklint/locklint/analyzer/fix/fixotel"
	"github.com/locklint/locklint/analyzer/fix/lock"
)

// TestScriptedSequence drives the observer through the events of two
// locks and checks every instrument's recorded values.
func TestScriptedSequence(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	obs, err := fixotel.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// lock:a: contended twice, then acquired on the third attempt, renewed
	// twice (once failing), released while held on the DELEX path.
	obs.Contended(ctx, "lock:a", 1)
	obs.Contended(ctx, "lock:a", 2)
	obs.Acquired(ctx, "lock:a", 30*time.Millisecond, 3, nil)
	obs.Renewed(ctx, "lock:a", nil)
	obs.Renewed(ctx, "lock:a", errors.New("i/o timeout"))
	time.Sleep(10 * time.Millisecond)
	obs.Released(ctx, "lock:a", lock.ReleaseDELEX, true)
	// lock:b: one attempt that failed, one acquisition lost.
	obs.Acquired(ctx, "lock:b", time.Millisecond, 1, fmt.Errorf("obtain: %w", lock.ErrNotObtained))
	obs.Acquired(ctx, "lock:b", 2*time.Millisecond, 1, nil)
	obs.Lost(ctx, "lock:b", lock.ErrLost)
	// A release after the loss finds it not held; no second hold time.
	obs.Released(ctx, "lock:b", lock.ReleaseLua, false)

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	if len(rm.ScopeMetrics) != 1 || rm.ScopeMetrics[0].Scope.Name != fixotel.ScopeName {
		t.Fatalf("scopes %+v, want one named %s", rm.ScopeMetrics, fixotel.ScopeName)
	}
	got := map[string]metricdata.Metrics{}
	for _, m := range rm.ScopeMetrics[0].Metrics {
		got[m.Name] = m
	}
	sums := func(name string) map[string]int64 {
		t.Helper()
		m, ok := got[name]
		if !ok {
			t.Fatalf("no instrument %s", name)
		}
		out := map[string]int64{}
		for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
			out[dp.Attributes.Encoded(attribute.DefaultEncoder())] += dp.Value
		}
		return out
	}
	hist := func(name string) map[string]metricdata.HistogramDataPoint[float64] {
		t.Helper()
		m, ok := got[name]
		if !ok {
			t.Fatalf("no instrument %s", name)
		}
		out := map[string]metricdata.HistogramDataPoint[float64]{}
		for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
			out[dp.Attributes.Encoded(attribute.DefaultEncoder())] = dp
		}
		return out
	}
	check := func(name string, got, want map[string]int64) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check(fixotel.Contention, sums(fixotel.Contention), map[string]int64{"": 2})
	check(fixotel.AcquireAttempts, sums(fixotel.AcquireAttempts), map[string]int64{"lock.outcome=acquired": 4, "lock.outcome=not_obtained": 1})
	check(fixotel.Renewals, sums(fixotel.Renewals), map[string]int64{"lock.outcome=failed": 1, "lock.outcome=renewed": 1})
	check(fixotel.Lost, sums(fixotel.Lost), map[string]int64{"": 1})
	check(fixotel.Releases, sums(fixotel.Releases), map[string]int64{
		"lock.held=false,lock.release.path=" + string(lock.ReleaseLua):  1,
		"lock.held=true,lock.release.path=" + string(lock.ReleaseDELEX): 1,
	})
	wait := hist(fixotel.AcquireDuration)
	if dp := wait["lock.outcome=acquired"]; dp.Count != 2 || dp.Sum < 0.0319 || dp.Sum > 0.0321 {
		t.Errorf("acquire duration (acquired): count %d sum %g, want 2 and 0.032 s", dp.Count, dp.Sum)
	}
	if dp := wait["lock.outcome=not_obtained"]; dp.Count != 1 {
		t.Errorf("acquire duration (not obtained): count %d, want 1", dp.Count)
	}
	hold := hist(fixotel.HoldDuration)[""]
	if hold.Count != 2 || hold.Sum < 0.010 {
		t.Errorf("hold duration: count %d sum %g s, want 2 holds, lock:a at least 10 ms", hold.Count, hold.Sum)
	}
	if u := got[fixotel.HoldDuration].Unit; u != "s" {
		t.Errorf("hold duration unit %q, want s", u)
	}
}
