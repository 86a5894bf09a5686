// Package fixotel records the lock library's events as OpenTelemetry
// metrics. It is a module of its own, so that a service that does not use
// OpenTelemetry never sees it in its module graph.
//
//	obs, err := fixotel.New(otel.GetMeterProvider())
//	l, err := fix.Obtain(ctx, rdb, key, ttl, fix.WithObserver(obs))
//
// It needs only package lock (whose Observer package fix and the client
// adapters share), so it brings no Redis client into the module graph.
//
// The instruments carry no lock key: keys usually hold ids, and an
// attribute per id would grow without bound.
package fixotel

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/locklint/locklint/analyzer/fix/lock"
)

// ScopeName is the instrumentation scope of the meter New uses.
const ScopeName = "github.com/locklint/locklint/analyzer/fix/lock"

// Instrument names and units, following OpenTelemetry's conventions.
const (
	AcquireDuration = "lock.acquire.duration" // s, histogram, lock.outcome
	AcquireAttempts = "lock.acquire.attempts" // {attempt}, counter, lock.outcome
	Contention      = "lock.contention"       // {attempt}, counter: attempts that found the lock taken
	HoldDuration    = "lock.hold.duration"    // s, histogram: acquired to released or lost
	Renewals        = "lock.renewals"         // {renewal}, counter, lock.outcome (renewed, failed)
	Lost            = "lock.lost"             // {lock}, counter
	Releases        = "lock.releases"         // {release}, counter, lock.release.path, lock.held
)

// Attribute keys.
const (
	OutcomeKey = attribute.Key("lock.outcome")
	PathKey    = attribute.Key("lock.release.path")
	HeldKey    = attribute.Key("lock.held")
)

// New returns an Observer that records on a meter of mp.
func New(mp metric.MeterProvider) (*lock.Observer, error) {
	m := mp.Meter(ScopeName)
	var r recorder
	var err, e error
	r.acquireDuration, e = m.Float64Histogram(AcquireDuration, metric.WithUnit("s"), metric.WithDescription("Time an Obtain took, by outcome."))
	err = errors.Join(err, e)
	r.attempts, e = m.Int64Counter(AcquireAttempts, metric.WithUnit("{attempt}"), metric.WithDescription("Acquire attempts, by the outcome of their Obtain."))
	err = errors.Join(err, e)
	r.contention, e = m.Int64Counter(Contention, metric.WithUnit("{attempt}"), metric.WithDescription("Acquire attempts that found the lock held."))
	err = errors.Join(err, e)
	r.hold, e = m.Float64Histogram(HoldDuration, metric.WithUnit("s"), metric.WithDescription("Time a lock was held, until released or lost."))
	err = errors.Join(err, e)
	r.renewals, e = m.Int64Counter(Renewals, metric.WithUnit("{renewal}"), metric.WithDescription("Watchdog renewals, by outcome."))
	err = errors.Join(err, e)
	r.lost, e = m.Int64Counter(Lost, metric.WithUnit("{lock}"), metric.WithDescription("Locks whose lease ran out or was taken while held."))
	err = errors.Join(err, e)
	r.releases, e = m.Int64Counter(Releases, metric.WithUnit("{release}"), metric.WithDescription("Owner-checked releases, by path and whether the lock was still held."))
	err = errors.Join(err, e)
	if err != nil {
		return nil, err
	}
	r.since = map[string]time.Time{}
	return &lock.Observer{
		Acquired:  r.acquired,
		Contended: r.contended,
		Renewed:   r.renewed,
		Lost:      r.lostLock,
		Released:  r.released,
	}, nil
}

type recorder struct {
	acquireDuration, hold                metric.Float64Histogram
	attempts, contention, renewals, lost metric.Int64Counter
	releases                             metric.Int64Counter

	mu sync.Mutex
	// since is when each held key was acquired, for the hold time; one
	// process holds a key once at a time.
	since map[string]time.Time
}

var (
	acquired    = metric.WithAttributes(OutcomeKey.String("acquired"))
	notObtained = metric.WithAttributes(OutcomeKey.String("not_obtained"))
	failed      = metric.WithAttributes(OutcomeKey.String("error"))
	renewed     = metric.WithAttributes(OutcomeKey.String("renewed"))
	renewFailed = metric.WithAttributes(OutcomeKey.String("failed"))
)

func (r *recorder) acquired(ctx context.Context, key string, wait time.Duration, attempts int, err error) {
	outcome := acquired
	switch {
	case err == nil:
		r.mu.Lock()
		r.since[key] = time.Now()
		r.mu.Unlock()
	case errors.Is(err, lock.ErrNotObtained):
		outcome = notObtained
	default:
		outcome = failed
	}
	r.acquireDuration.Record(ctx, wait.Seconds(), outcome)
	r.attempts.Add(ctx, int64(attempts), outcome)
}

func (r *recorder) contended(ctx context.Context, _ string, _ int) { r.contention.Add(ctx, 1) }

func (r *recorder) renewed(ctx context.Context, _ string, err error) {
	if err != nil {
		r.renewals.Add(ctx, 1, renewFailed)
		return
	}
	r.renewals.Add(ctx, 1, renewed)
}

func (r *recorder) lostLock(ctx context.Context, key string, _ error) {
	r.lost.Add(ctx, 1)
	r.held(ctx, key)
}

func (r *recorder) released(ctx context.Context, key string, path lock.ReleasePath, held bool) {
	r.releases.Add(ctx, 1, metric.WithAttributes(PathKey.String(string(path)), HeldKey.Bool(held)))
	r.held(ctx, key)
}

// held records the hold time of key, once.
func (r *recorder) held(ctx context.Context, key string) {
	r.mu.Lock()
	start, ok := r.since[key]
	delete(r.since, key)
	r.mu.Unlock()
	if ok {
		r.hold.Record(ctx, time.Since(start).Seconds())
	}
}
