// Package matchmaking pins the held-out false report of a matchmaking
// service (Culturae's JoinQueue): a player's queued parameters are
// stored with SETNX as JSON, deleted again when the queue push fails,
// and read back and decoded when the player leaves. The key holds a
// record, and its delete removes the record: silent. The twin stores a
// bare ticket that nothing decodes, and its delete still reports.
package matchmaking

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"locklint.test/unconditionaldel/regressions/queueparams/cache"
)

type Service struct{ rdb cache.RedisClientInterface }

func (s *Service) JoinQueue(ctx context.Context, user, mode string, params map[string]any) error {
	paramsKey := fmt.Sprintf("matchmaking:params:%s:%s", mode, user)
	data, _ := json.Marshal(params)
	ok, err := s.rdb.SetNX(ctx, paramsKey, string(data), 5*time.Minute)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("already queued")
	}
	if err := s.rdb.RPush(ctx, "matchmaking:queue:"+mode, user); err != nil {
		_ = s.rdb.Delete(ctx, paramsKey)
		return err
	}
	return nil
}

func (s *Service) LeaveQueue(ctx context.Context, user, mode string) error {
	paramsKey := fmt.Sprintf("matchmaking:params:%s:%s", mode, user)
	if data, err := s.rdb.Get(ctx, paramsKey); err == nil {
		var params map[string]any
		if json.Unmarshal([]byte(data), &params) == nil {
			_ = s.rdb.LRem(ctx, fmt.Sprintf("matchmaking:queue:%s:%v", mode, params["level"]), 0, user)
		}
	}
	return s.rdb.Delete(ctx, paramsKey)
}

// JoinTicket is the twin: a ticket taken with SETNX, given back when the
// push fails, and never read.
func (s *Service) JoinTicket(ctx context.Context, user, mode, token string) error {
	ticketKey := fmt.Sprintf("matchmaking:ticket:%s:%s", mode, user)
	ok, err := s.rdb.SetNX(ctx, ticketKey, token, 5*time.Minute)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("already queued")
	}
	if err := s.rdb.RPush(ctx, "matchmaking:queue:"+mode, user); err != nil {
		_ = s.rdb.Delete(ctx, ticketKey) // want "DEL of lock key `ticketKey`"
		return err
	}
	return nil
}

func (s *Service) LeaveTicket(ctx context.Context, user, mode string) error {
	return s.rdb.Delete(ctx, fmt.Sprintf("matchmaking:ticket:%s:%s", mode, user)) // want "DEL of lock key"
}
