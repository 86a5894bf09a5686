// Package forcebranch pins the held-out false report of an operator's
// forced clearing (KeyOps's schedule-run handler): when the run's lock is
// held, a manual trigger with force=1 deletes whatever lock a dead run
// left and tries once more (a query parameter, or a request field
// Force). The branch names the forcing; its missing
// owner check is the point. The twin deletes on the same miss behind a
// parameter that merely contains the letters (enforce).
package handler

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/unconditionaldel/regressions/forcebranch/distributed"
)

type Handler struct {
	rdb *redis.Client
	run func(id string)
}

// client is the shared client, nil when Redis is off.
func (h *Handler) client() *redis.Client { return h.rdb }

// Near miss (silent): the operator's query parameter clears a stuck lock.
func (h *Handler) Trigger(w http.ResponseWriter, r *http.Request) {
	scheduleID := r.PathValue("schedule_id")
	lockKey := "ai_assistant:schedule_run:" + scheduleID
	lock := distributed.NewRedisLock(h.rdb, lockKey, time.Hour)
	ok, err := lock.TryLock()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if !ok {
		if r.URL.Query().Get("force") == "1" {
			if client := h.client(); client != nil {
				_ = client.Del(r.Context(), lockKey).Err()
				lock = distributed.NewRedisLock(client, lockKey, time.Hour)
				if ok, err = lock.TryLock(); err != nil {
					http.Error(w, err.Error(), http.StatusInternalServerError)
					return
				}
			}
		}
		if !ok {
			http.Error(w, "a run is in progress; pass force=1 if it died", http.StatusConflict)
			return
		}
	}
	defer lock.Unlock()
	h.run(scheduleID)
}

type TriggerRequest struct {
	ScheduleID string
	Force      bool
}

// Near miss (silent): the identifier form, a request's Force flag.
func (h *Handler) TriggerRequest(ctx context.Context, req TriggerRequest) error {
	lockKey := "ai_assistant:schedule_run:" + req.ScheduleID
	lock := distributed.NewRedisLock(h.rdb, lockKey, time.Hour)
	ok, err := lock.TryLock()
	if err != nil {
		return err
	}
	if !ok && req.Force {
		_ = h.rdb.Del(ctx, lockKey).Err()
		if ok, err = lock.TryLock(); err != nil {
			return err
		}
	}
	if !ok {
		return errors.New("a run is in progress")
	}
	defer lock.Unlock()
	h.run(req.ScheduleID)
	return nil
}

// Must report: a parameter that only contains the letters.
func (h *Handler) TriggerEnforce(w http.ResponseWriter, r *http.Request) {
	scheduleID := r.PathValue("schedule_id")
	lockKey := "ai_assistant:schedule_run:" + scheduleID
	lock := distributed.NewRedisLock(h.rdb, lockKey, time.Hour)
	ok, err := lock.TryLock()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if !ok {
		if r.URL.Query().Get("enforce") == "1" {
			if client := h.client(); client != nil {
				_ = client.Del(r.Context(), lockKey).Err() // want "DEL of lock key `lockKey` without an owner check"
				lock = distributed.NewRedisLock(client, lockKey, time.Hour)
				if ok, err = lock.TryLock(); err != nil {
					http.Error(w, err.Error(), http.StatusInternalServerError)
					return
				}
			}
		}
		if !ok {
			http.Error(w, "a run is in progress", http.StatusConflict)
			return
		}
	}
	defer lock.Unlock()
	h.run(scheduleID)
}
