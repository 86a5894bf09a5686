package grpc

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// RebuildRequest stands for a generated protocol buffer message.
type RebuildRequest struct{ Feed string }

func (*RebuildRequest) Reset()         {}
func (*RebuildRequest) String() string { return "" }
func (*RebuildRequest) ProtoMessage()  {}

type RebuildResponse struct{}

type server struct{ rdb redis.UniversalClient }

// A gRPC handler's context.
func (s *server) Rebuild(ctx context.Context, req *RebuildRequest) (*RebuildResponse, error) {
	key := "lock:feed:" + req.Feed
	if !s.rdb.SetNX(ctx, key, "tok", time.Minute).Val() {
		return nil, nil
	}
	defer s.rdb.Del(ctx, key) // want "deferred DEL: `ctx` is gRPC handler `Rebuild`'s, cancelled with the call"
	return &RebuildResponse{}, nil
}

// The handler's context with a timeout of the handler's.
func (s *server) Refresh(ctx context.Context, req *RebuildRequest) (*RebuildResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	defer s.rdb.Del(ctx, "lock:refresh") // want "deferred DEL: `ctx` is gRPC handler `Refresh`'s"
	return nil, nil
}

// Near miss: an ordinary function's context parameter says nothing of
// when it ends.
func rebuild(ctx context.Context, rdb *redis.Client, feed string) error { // want rebuild:"defers a release under parameter 0 at grpc.go:46"
	key := "lock:feed:" + feed
	if !rdb.SetNX(ctx, key, "tok", time.Minute).Val() {
		return nil
	}
	defer rdb.Del(ctx, key)
	return nil
}

type plain struct{ Feed string }

// Near miss: the same method shape with a request that is no message.
func (s *server) Other(ctx context.Context, req *plain) (*RebuildResponse, error) { // want Other:"defers a release under parameter 0 at grpc.go:54"
	defer s.rdb.Del(ctx, "lock:other")
	return nil, nil
}
