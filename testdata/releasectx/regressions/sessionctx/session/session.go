// Package session stands for a document database driver's sessions: a
// transaction runs a callback under a session context that the driver
// derives from the context WithTransaction is given, and that ends with
// it.
package session

import "context"

type SessionContext interface {
	context.Context
	AbortTransaction(context.Context) error
}

type Session struct{}

func (s *Session) WithTransaction(ctx context.Context, fn func(SessionContext) (any, error)) (any, error) {
	return nil, nil
}

func (s *Session) EndSession(context.Context) {}
