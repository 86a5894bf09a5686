// Package logic holds a go-zero service's logic structs: each keeps the
// context its constructor was given in its ctx field, and its method
// takes a lock under l.ctx and defers the release under l.ctx. The
// generated server (package server) gives the constructor the gRPC
// call's context, so the deferred release runs after the work under a
// context the caller's cancellation or deadline may have ended; the
// reports are at the server's calls. The near misses release under a
// context of their own, or keep a context their constructor made.
package logic

import (
	"context"
	"fmt"

	"github.com/zeromicro/go-zero/core/logx"
	"github.com/zeromicro/go-zero/core/stores/redis"

	"locklint.test/releasectx/regressions/logicctx/pb"
)

type ServiceContext struct{ Redis *redis.Redis }

type DeductLogic struct {
	ctx    context.Context
	svcCtx *ServiceContext
	logx.Logger
}

func NewDeductLogic(ctx context.Context, svcCtx *ServiceContext) *DeductLogic { // want NewDeductLogic:"keeps parameter 0 in field ctx"
	return &DeductLogic{ctx: ctx, svcCtx: svcCtx, Logger: logx.WithContext(ctx)}
}

// The release in a deferred closure, under l.ctx.
func (l *DeductLogic) Deduct(in *pb.DeductReq) (*pb.Empty, error) { // want Deduct:"defers a release under field ctx at logic.go:45"
	rl := redis.NewRedisLock(l.svcCtx.Redis, fmt.Sprintf("lock:product:id:%d", in.Id))
	rl.SetExpire(5)
	ok, err := rl.AcquireCtx(l.ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("product %d is busy", in.Id)
	}
	defer func() {
		if _, err := rl.ReleaseCtx(l.ctx); err != nil {
			l.Errorf("release: %v", err)
		}
	}()
	_, err = l.svcCtx.Redis.DecrbyCtx(l.ctx, fmt.Sprintf("stock:%d", in.Id), in.Amount)
	return &pb.Empty{}, err
}

type RollbackLogic struct {
	ctx    context.Context
	svcCtx *ServiceContext
}

func NewRollbackLogic(ctx context.Context, svcCtx *ServiceContext) *RollbackLogic { // want NewRollbackLogic:"keeps parameter 0 in field ctx"
	return &RollbackLogic{ctx: ctx, svcCtx: svcCtx}
}

// The context handed to a deferred function literal as its argument.
func (l *RollbackLogic) Rollback(in *pb.DeductReq) (*pb.Empty, error) { // want Rollback:"defers a release under field ctx at logic.go:70"
	rl := redis.NewRedisLock(l.svcCtx.Redis, fmt.Sprintf("lock:product:id:%d", in.Id))
	rl.SetExpire(5)
	if ok, err := rl.AcquireCtx(l.ctx); err != nil || !ok {
		return nil, fmt.Errorf("product %d is busy", in.Id)
	}
	defer func(rl *redis.RedisLock, ctx context.Context) {
		_, _ = rl.ReleaseCtx(ctx)
	}(rl, l.ctx)
	_, err := l.svcCtx.Redis.IncrbyCtx(l.ctx, fmt.Sprintf("stock:%d", in.Id), in.Amount)
	return &pb.Empty{}, err
}

type RestockLogic struct {
	ctx    context.Context
	svcCtx *ServiceContext
}

func NewRestockLogic(ctx context.Context, svcCtx *ServiceContext) *RestockLogic {
	return &RestockLogic{ctx: ctx, svcCtx: svcCtx}
}

// Near miss: the release runs under a context that outlives the call.
func (l *RestockLogic) Restock(in *pb.DeductReq) (*pb.Empty, error) {
	rl := redis.NewRedisLock(l.svcCtx.Redis, fmt.Sprintf("lock:product:id:%d", in.Id))
	rl.SetExpire(5)
	if ok, err := rl.AcquireCtx(l.ctx); err != nil || !ok {
		return nil, fmt.Errorf("product %d is busy", in.Id)
	}
	defer rl.ReleaseCtx(context.WithoutCancel(l.ctx))
	_, err := l.svcCtx.Redis.IncrbyCtx(l.ctx, fmt.Sprintf("stock:%d", in.Id), in.Amount)
	return &pb.Empty{}, err
}

type AuditLogic struct {
	ctx    context.Context
	svcCtx *ServiceContext
}

// Near miss: the constructor keeps a context of its own, not its
// caller's.
func NewAuditLogic(ctx context.Context, svcCtx *ServiceContext) *AuditLogic {
	return &AuditLogic{ctx: context.WithoutCancel(ctx), svcCtx: svcCtx}
}

func (l *AuditLogic) Audit(in *pb.DeductReq) (*pb.Empty, error) { // want Audit:"defers a release under field ctx at logic.go:114"
	rl := redis.NewRedisLock(l.svcCtx.Redis, fmt.Sprintf("lock:audit:%d", in.Id))
	rl.SetExpire(5)
	if ok, err := rl.AcquireCtx(l.ctx); err != nil || !ok {
		return nil, fmt.Errorf("audit %d is busy", in.Id)
	}
	defer rl.ReleaseCtx(l.ctx)
	return &pb.Empty{}, nil
}

type CountLogic struct {
	ctx    context.Context
	svcCtx *ServiceContext
	logx.Logger
}

func NewCountLogic(ctx context.Context, svcCtx *ServiceContext) *CountLogic { // want NewCountLogic:"keeps parameter 0 in field ctx"
	return &CountLogic{ctx: ctx, svcCtx: svcCtx, Logger: logx.WithContext(ctx)}
}

// The handler's method reads the cache and leaves the rebuild, and the
// lock around it, to a method of its own receiver.
func (l *CountLogic) Count(in *pb.DeductReq) (*pb.Empty, error) { // want Count:"defers a release under field ctx at logic.go:159"
	if v, _ := l.svcCtx.Redis.GetCtx(l.ctx, fmt.Sprintf("count:%d", in.Id)); v != "" {
		return &pb.Empty{}, nil
	}
	return l.rebuild(in)
}

// Near miss: the rebuild runs on a logic of its own, made with a context
// that outlives the call.
func (l *CountLogic) CountDetached(in *pb.DeductReq) (*pb.Empty, error) {
	other := NewCountLogic(context.WithoutCancel(l.ctx), l.svcCtx)
	return other.rebuild(in)
}

// Near miss: the rebuild runs in a goroutine of its own, which the
// handler does not wait for.
func (l *CountLogic) CountLater(in *pb.DeductReq) (*pb.Empty, error) {
	go l.rebuild(in)
	return &pb.Empty{}, nil
}

func (l *CountLogic) rebuild(in *pb.DeductReq) (*pb.Empty, error) { // want rebuild:"defers a release under field ctx at logic.go:159"
	rl := redis.NewRedisLock(l.svcCtx.Redis, fmt.Sprintf("lock:count:rebuild:%d", in.Id))
	rl.SetExpire(30)
	ok, err := rl.AcquireCtx(l.ctx)
	if err != nil || !ok {
		return nil, fmt.Errorf("count %d is being rebuilt", in.Id)
	}
	defer func() {
		if released, err := rl.ReleaseCtx(l.ctx); !released || err != nil {
			l.Errorf("release: %v", err)
		}
	}()
	_, err = l.svcCtx.Redis.IncrbyCtx(l.ctx, fmt.Sprintf("count:%d", in.Id), in.Amount)
	return &pb.Empty{}, err
}
