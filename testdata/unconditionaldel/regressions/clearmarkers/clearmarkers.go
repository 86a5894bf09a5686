// Package clearmarkers pins a game's disconnect state: a player's
// "disconnected" record, written with a plain SET of the time, and a
// bot-takeover flag taken with SETNX whose reply only counts a metric.
// One DEL clears both when the player comes back or the match ends: it
// resets state, it gives back no lock, even though one method takes the
// flag and others delete it, and a caller does both with the same
// arguments. The near misses that must report are a seat lock of the
// same type, taken by one method and deleted alone by another, and a
// DEL of two keys that are both taken.
package clearmarkers

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Service struct {
	rdb       *redis.Client
	takeovers int
}

func disconnectedKey(match, player string) string {
	return "match:disconnected:" + match + ":" + player
}

func takeoverKey(match, player string) string {
	return "match:bot_takeover:" + match + ":" + player
}

func seatKey(match, player string) string {
	return "match:seat:" + match + ":" + player
}

func (s *Service) MarkDisconnected(ctx context.Context, match, player string) error {
	return s.rdb.Set(ctx, disconnectedKey(match, player), fmt.Sprint(time.Now().Unix()), time.Hour).Err()
}

func (s *Service) EnableTakeover(ctx context.Context, match, player string) error {
	on, err := s.rdb.SetNX(ctx, takeoverKey(match, player), "1", time.Hour).Result()
	if err != nil {
		return err
	}
	if on {
		s.takeovers++
	}
	return nil
}

// Silent: clears the record and the flag together.
func (s *Service) ClearDisconnected(ctx context.Context, match, player string) error {
	return s.rdb.Del(ctx, disconnectedKey(match, player), takeoverKey(match, player)).Err()
}

// Silent: the same, for every player, spread from a slice.
func (s *Service) clearMarkers(ctx context.Context, match string, players []string) {
	keys := make([]string, 0, 2*len(players))
	for _, p := range players {
		keys = append(keys, disconnectedKey(match, p))
		keys = append(keys, takeoverKey(match, p))
	}
	_ = s.rdb.Del(ctx, keys...).Err()
}

func (s *Service) HandleTimeouts(ctx context.Context, match string, players []string) {
	for _, p := range players {
		if err := s.EnableTakeover(ctx, match, p); err != nil {
			continue
		}
		s.clearMarkers(ctx, match, []string{p})
	}
}

func (s *Service) TakeSeat(ctx context.Context, match, player string) (bool, error) {
	return s.rdb.SetNX(ctx, seatKey(match, player), "1", time.Minute).Result()
}

// Must report: the seat lock alone, deleted by another method.
func (s *Service) LeaveSeat(ctx context.Context, match, player string) error {
	return s.rdb.Del(ctx, seatKey(match, player)).Err() // want "DEL of lock key"
}

// Must report: both keys are taken, neither is a record.
func (s *Service) LeaveAll(ctx context.Context, match, player string) error {
	return s.rdb.Del(ctx, seatKey(match, player), takeoverKey(match, player)).Err() // want "DEL of lock key"
}
