// Package biz is the use-case layer of a judge service laid out in
// layers: its repository is an interface of its own, implemented with
// Redis in package data, which imports biz; biz sees no implementation.
package biz

import "time"

// Repo is what the use cases need of storage.
type Repo interface {
	Lock(key string, ttl time.Duration) (bool, error)
	UnLock(key string) error
	Save(id string, verdict string) error
}

// UseCase forwards the lock calls to its repository.
type UseCase struct {
	repo Repo
}

func New(repo Repo) *UseCase { return &UseCase{repo: repo} }

func (uc *UseCase) Lock(key string, ttl time.Duration) (bool, error) {
	return uc.repo.Lock(key, ttl)
}

func (uc *UseCase) UnLock(key string) error {
	return uc.repo.UnLock(key)
}

func (uc *UseCase) Save(id, verdict string) error {
	return uc.repo.Save(id, verdict)
}
