// Package biz pins a kratos use case that takes its lock through the
// data layer's port (a RedisRepository interface whose implementation
// lives in the data package, which imports this one) and defers an
// owner-checked release script, kept in a variable of another package, under the
// context of the gRPC call: the use case's method has the handler's
// shape, and the service passes its context straight in. When the
// examinee's connection drops, the release fails unsent and the lock
// stays for its lease: reported. The near misses detach the release's
// context, and defer a script that deletes nothing.
package biz

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"locklint.test/releasectx/regressions/bizport/consts"
	"locklint.test/releasectx/regressions/bizport/examv1"
)

type RedisRepository interface {
	Get(ctx context.Context, key string) (string, error)
	Del(ctx context.Context, keys ...string) error
	SetNX(ctx context.Context, key string, value string, expiration time.Duration) (bool, error)
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) (interface{}, error)
}

type AnswerRepo interface {
	Save(ctx context.Context, id int64) error
}

type ExamUseCase struct {
	redisRepo RedisRepository
	repo      AnswerRepo
}

func NewExamUseCase(r RedisRepository, a AnswerRepo) *ExamUseCase {
	return &ExamUseCase{redisRepo: r, repo: a}
}

func (uc *ExamUseCase) SubmitExam(ctx context.Context, req *examv1.SubmitExamRequest) (resp *examv1.SubmitExamResponse, err error) {
	resp = &examv1.SubmitExamResponse{}
	var (
		lockExpire   = 5 * time.Second
		lockValue, _ = nextID("lock")
	)
	lockKey := fmt.Sprintf(consts.RedisLockKey, req.AssociationId)
	ok, err := uc.redisRepo.SetNX(ctx, lockKey, lockValue, lockExpire)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("busy")
	}
	defer func() {
		result, err := uc.redisRepo.Eval(ctx, consts.UnlockScript, []string{lockKey}, lockValue) // want "deferred EVAL: `ctx` is gRPC handler `SubmitExam`.s"
		if err != nil {
			return
		}
		_ = result
	}()
	if err = uc.repo.Save(ctx, req.AssociationId); err != nil {
		return nil, err
	}
	return &examv1.SubmitExamResponse{Score: 1}, nil
}

// Near miss: the release runs under a context the caller cannot end.
func (uc *ExamUseCase) RetakeExam(ctx context.Context, req *examv1.SubmitExamRequest) (*examv1.SubmitExamResponse, error) {
	lockKey := fmt.Sprintf("exam_lock:retake:%d", req.AssociationId)
	lockValue := uuid.NewString()
	ok, err := uc.redisRepo.SetNX(ctx, lockKey, lockValue, 5*time.Second)
	if err != nil || !ok {
		return nil, errors.New("busy")
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_, _ = uc.redisRepo.Eval(rctx, consts.UnlockScript, []string{lockKey}, lockValue)
	}()
	return &examv1.SubmitExamResponse{}, uc.repo.Save(ctx, req.AssociationId)
}

// Near miss: the deferred script extends the lease and deletes nothing.
func (uc *ExamUseCase) Heartbeat(ctx context.Context, req *examv1.SubmitExamRequest) (*examv1.SubmitExamResponse, error) {
	lockKey := fmt.Sprintf("exam_lock:beat:%d", req.AssociationId)
	lockValue := uuid.NewString()
	ok, err := uc.redisRepo.SetNX(ctx, lockKey, lockValue, 5*time.Second)
	if err != nil || !ok {
		return nil, errors.New("busy")
	}
	defer uc.redisRepo.Eval(ctx, consts.TouchScript, []string{lockKey}, lockValue, 5000)
	return &examv1.SubmitExamResponse{}, uc.repo.Save(ctx, req.AssociationId)
}

func nextID(string) (string, error) { return uuid.NewString(), nil }
