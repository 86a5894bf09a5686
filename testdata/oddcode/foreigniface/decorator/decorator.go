// Package decorator declares the interfaces another package names its
// own types after: a generic query handler and a plain store.
package decorator

import "context"

type QueryHandler[Q, R any] interface {
	Handle(ctx context.Context, q Q) (R, error)
}

type Store interface {
	Remove(ctx context.Context, key string) error
}
