// Package joinmarker pins a deduplication flag beside two locks of the
// same handler file: a member's join event reaches every bot instance,
// and the first to take "verify:dm_lock:<user>" (a constant, 30 s) starts
// the verification; nothing gives the flag back, renews it or reads it,
// so nothing compares its value. The verification and the approval take
// their own keys with a constant and give them back with a deferred
// plain DEL, which nothing compares either: each lock's one defect is its
// DEL, which unconditionaldel reports, naming the constant.
package joinmarker

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	Client *redis.Client
	Ctx    = context.Background()
)

type Service struct{}

func (v *Service) OnMemberAdd(userID string) {
	lockKey := fmt.Sprintf("verify:dm_lock:%s", userID)
	if Client != nil {
		locked, _ := Client.SetNX(Ctx, lockKey, "1", 30*time.Second).Result()
		if !locked {
			return
		}
	}
	v.StartVerification(userID)
}

func (v *Service) StartVerification(userID string) {
	lockKey := fmt.Sprintf("verify:start_lock:%s", userID)
	if Client != nil {
		locked, _ := Client.SetNX(Ctx, lockKey, "1", 10*time.Second).Result()
		if !locked {
			return
		}
		defer Client.Del(Ctx, lockKey)
	}
	fmt.Println("verifying", userID)
}

func (v *Service) Approve(userID string) {
	lockKey := fmt.Sprintf("verify:approve_lock:%s", userID)
	if Client != nil {
		locked, _ := Client.SetNX(Ctx, lockKey, "1", 10*time.Second).Result()
		if !locked {
			return
		}
		defer Client.Del(Ctx, lockKey)
	}
	fmt.Println("approving", userID)
}

// The moderators' reset deletes a member's records, none of them the
// flag: each key of the slice is made here, with another constant.
func (v *Service) Reset(ctx context.Context, userID string) {
	keysToDelete := []string{
		fmt.Sprintf("verify:state:%s", userID),
		fmt.Sprintf("user:passport:%s", userID),
		fmt.Sprintf("verify:nudge:%s", userID),
	}
	for _, key := range keysToDelete {
		Client.Del(ctx, key)
	}
}

// Must report: the boost flag is one of the keys its reset deletes, so
// something gives it back and it is no marker (a delete of a key read
// from a slice is no plain DEL of the flag's own key).
func (v *Service) OnBoost(userID string) {
	lockKey := fmt.Sprintf("verify:boost_lock:%s", userID)
	locked, _ := Client.SetNX(Ctx, lockKey, "1", 30*time.Second).Result() // want `lock key .lockKey. acquired with a non-unique token \(the constant ."1".\)`
	if !locked {
		return
	}
	fmt.Println("boosted", userID)
}

func (v *Service) ResetBoost(ctx context.Context, userID string) {
	keysToDelete := []string{
		fmt.Sprintf("verify:boost_lock:%s", userID),
		fmt.Sprintf("verify:boost:%s", userID),
	}
	for _, key := range keysToDelete {
		Client.Del(ctx, key)
	}
}
