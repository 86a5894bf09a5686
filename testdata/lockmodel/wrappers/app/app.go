package app

import (
	"context"
	"time"

	"locklint.test/lockmodel/wrappers/kv"
)

func use(ctx context.Context, s *kv.Store, id, token string) {
	s.PutIfAbsent(ctx, "lock:"+id, token, time.Second) // want `^SET key="lock:" \+ id value=token ttl=time.Second NX via=PutIfAbsent lock=name$`
	s.PutIfAbsent(ctx, "lock:"+id, token, 0)           // want `^SETNX key="lock:" \+ id value=token ttl=none NX via=PutIfAbsent lock=name$`
	s.Remove(ctx, "lock:"+id, "other")                 // want `^DEL key="lock:" \+ id,"other" via=Remove lock=name$`
	s.Swap(ctx, "lock:"+id, token)
}
