// Package server is the generated gRPC server of the stock service: each
// handler makes a logic struct with the call's context and runs it. A
// logic method that defers its lock's release under the struct's ctx
// releases under the call's context, which the caller's cancellation or
// the server's deadline ends.
package server

import (
	"context"
	"net/http"

	"locklint.test/releasectx/regressions/logicctx/logic"
	"locklint.test/releasectx/regressions/logicctx/pb"
)

type StockServer struct{ svcCtx *logic.ServiceContext }

func (s *StockServer) Deduct(ctx context.Context, in *pb.DeductReq) (*pb.Empty, error) {
	l := logic.NewDeductLogic(ctx, s.svcCtx)
	return l.Deduct(in) // want "`l.Deduct` defers its lock's release under field ctx \\(logic.go:45\\): `ctx` is gRPC handler `Deduct`'s, cancelled with the call"
}

func (s *StockServer) Rollback(ctx context.Context, in *pb.DeductReq) (*pb.Empty, error) {
	return logic.NewRollbackLogic(ctx, s.svcCtx).Rollback(in) // want "`logic.NewRollbackLogic\\(ctx, s.svcCtx\\).R…` defers its lock's release under field ctx \\(logic.go:70\\)"
}

// Near miss: the logic's release runs under a context of its own.
func (s *StockServer) Restock(ctx context.Context, in *pb.DeductReq) (*pb.Empty, error) {
	return logic.NewRestockLogic(ctx, s.svcCtx).Restock(in)
}

// Near miss: the constructor keeps a context that outlives the call.
func (s *StockServer) Audit(ctx context.Context, in *pb.DeductReq) (*pb.Empty, error) {
	return logic.NewAuditLogic(ctx, s.svcCtx).Audit(in)
}

// Near miss: a job made by the service itself, under its own context.
func (s *StockServer) nightly(in *pb.DeductReq) {
	l := logic.NewDeductLogic(context.Background(), s.svcCtx)
	_, _ = l.Deduct(in)
}

// A go-zero REST handler makes the logic with its request's context.
func DeductHandler(svcCtx *logic.ServiceContext) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		l := logic.NewDeductLogic(r.Context(), svcCtx)
		if _, err := l.Deduct(&pb.DeductReq{Id: 1, Amount: 1}); err != nil { // want "`l.Deduct` defers its lock's release under field ctx \\(logic.go:45\\): `r.Context\\(\\)` is the request's"
			http.Error(w, err.Error(), http.StatusConflict)
		}
	}
}

// The logic's exported method leaves the lock to a method of its own
// receiver, which defers the release under the kept context.
func (s *StockServer) Count(ctx context.Context, in *pb.DeductReq) (*pb.Empty, error) {
	l := logic.NewCountLogic(ctx, s.svcCtx)
	return l.Count(in) // want "`l.Count` defers its lock's release under field ctx \\(logic.go:159\\): `ctx` is gRPC handler `Count`'s, cancelled with the call"
}

// Near misses: a rebuild on a logic made with a detached context, and
// one in a goroutine.
func (s *StockServer) CountDetached(ctx context.Context, in *pb.DeductReq) (*pb.Empty, error) {
	return logic.NewCountLogic(ctx, s.svcCtx).CountDetached(in)
}

func (s *StockServer) CountLater(ctx context.Context, in *pb.DeductReq) (*pb.Empty, error) {
	return logic.NewCountLogic(ctx, s.svcCtx).CountLater(in)
}
