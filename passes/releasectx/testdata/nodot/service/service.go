// Package service is the gRPC layer of a module whose path has no dot:
// it reaches Redis only through the use case's port, and its handler's
// context reaches the use case's deferred release.
package service

import (
	"context"

	"seckill/biz"
	"seckill/pb"
)

type Service struct{ uc *biz.Usecase }

func (s *Service) Detail(ctx context.Context, req *pb.DetailRequest) (*pb.DetailReply, error) { // want Detail:"defers a release under parameter 0"
	name, err := s.uc.Detail(ctx, req.ProductId) // want "defers its lock's release"
	if err != nil {
		return nil, err
	}
	return &pb.DetailReply{Name: name}, nil
}
