// Package provider pins a rate counter whose key another package's key
// maker names for a lock: INCR counts the requests of a token in a
// guild, EXPIRE gives the count its 5 s window, and SET fills it to the
// limit to blacklist the token. Each key of that maker is counted, so
// the EXPIRE renews no lock: silent. The twin takes another maker's key
// with SETNX and renews it with a plain EXPIRE: reported.
package provider

import (
	"context"
	"log"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/plainpexpire/regressions/keymaker/rediskey"
)

type TokenProvider struct {
	client      *redis.Client
	maxRequests int64
}

func (p *TokenProvider) IncrAndTest(guild, token string) bool {
	i, err := p.client.Incr(context.Background(), rediskey.GuildTokenLock(guild, token)).Result()
	if err != nil {
		log.Println(err)
	}
	if i >= p.maxRequests {
		return false
	}
	err = p.client.Expire(context.Background(), rediskey.GuildTokenLock(guild, token), 5*time.Second).Err()
	if err != nil {
		log.Println(err)
	}
	return true
}

func (p *TokenProvider) Blacklist(guild, token string, d time.Duration) error {
	return p.client.Set(context.Background(), rediskey.GuildTokenLock(guild, token), p.maxRequests, d).Err()
}

func (p *TokenProvider) LockVoice(ctx context.Context, code, owner string) (bool, error) {
	return p.client.SetNX(ctx, rediskey.VoiceLock(code), owner, 2*time.Second).Result()
}

func (p *TokenProvider) ExtendVoice(ctx context.Context, code string) error {
	return p.client.Expire(ctx, rediskey.VoiceLock(code), 2*time.Second).Err() // want "EXPIRE of lock key"
}
