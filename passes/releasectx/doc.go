// Package releasectx defines an Analyzer that reports lock releases
// deferred under a context that may be done by the time they run.
//
// # Analyzer releasectx
//
// releasectx: report a deferred lock release under a context that the client, a gRPC caller or the work's timeout may have ended, one in the branch where its context is done, one handed back under a context cancelled on return or right after the acquire, or the call that gives such a context to a function that defers its release under it
//
// A release deferred in a handler runs after the work, under the
// handler's context. When the client has disconnected (an HTTP
// request's context), the gRPC caller has cancelled or its deadline
// passed, or the work ran past the timeout it was given, that context is
// done: the client fails the release at once, without sending it, and the
// lock stays until its TTL, blocking every other worker meanwhile.
//
//	func (s *Server) Rebuild(w http.ResponseWriter, r *http.Request) {
//		ctx := r.Context()
//		if !s.rdb.SetNX(ctx, "lock:feed", token, time.Minute).Val() {
//			return
//		}
//		defer s.rdb.Del(ctx, "lock:feed") // fails if the client went away
//		s.rebuild(ctx)
//	}
//
// Release under context.WithoutCancel(ctx), which keeps the context's
// values and drops its cancellation, with a timeout of its own:
//
//	defer func() {
//		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
//		defer cancel()
//		s.rdb.Del(rctx, "lock:feed")
//	}()
//
// or release with the lock library (fix.Release, lock.Release, a Lock's
// Release, fix.Do and lock.Do from github.com/locklint/locklint/analyzer/fix),
// which does so itself and is never reported.
//
// A release is a DEL of a lock key, an owner-checked DELEX, a script
// that deletes one of its KEYS, or a call of a function of the service's
// own that sends one of these under the context it is given (a wrapper's
// Unlock(ctx)), deferred itself or in a deferred function literal. Its
// context is reported when it is, or is derived from, an HTTP request's
// (r.Context(), and so gin's c.Request.Context() and echo's
// c.Request().Context()); the context parameter of a gRPC handler (a
// method taking a context and a protocol buffer message and returning a
// response and an error); a WithTimeout or WithDeadline context that the
// work also runs under; or a WithCancel context whose cancel is deferred
// after the release, and so runs first.
//
// A release that is not deferred is reported when it runs in the branch
// that runs only once its context is done, a select case on ctx.Done()
// or the body of if ctx.Err() != nil: the client fails it at once.
//
// A release handed back to the caller is reported where it is handed
// out: a function literal that a function returns (itself, or through
// the one local a return names) and that releases under a context the
// function made with WithTimeout, WithDeadline or WithCancel and cancels
// with a deferred cancel, or the call of a function of the package that
// returns a release bound to its context parameter (a lock's acquire
// that returns its attempt's unlock closure), given such a context. Every
// call of the release comes after the cancel. So is the call of such a
// function, of this package or another, given a context the caller made
// with WithTimeout, WithDeadline or WithCancel and cancels with a plain
// cancel() after the call (a short timeout that bounds only the
// acquire), when the release it handed back is called or deferred after
// that cancel: it always runs under a cancelled context.
//
// A release deferred under a context parameter is reported where the
// function is called with such a context: a handler that passes its
// request's context (or a timeout of it, made here or by a helper of the
// package, or the context a callback is given by a call that derives it
// from the request's: the session context of a database transaction,
// session.WithTransaction(ctx, txFunc)) to a service method that defers its lock's release under
// that parameter (or under a context it derives from it and from
// nothing else, for a tracing span or a logger: ctx, span :=
// tracer.Start(ctx, name); not context.WithoutCancel), itself, through a release an acquire handed back
// (also kept in a variable that holds a no-op until the lock is taken),
// through a lock handle that keeps the context its maker was given
// (lock(ctx, key) returns &lock{ctx: ctx}, and a deferred l.unlock()
// releases under l.ctx), through a method that defers its release under
// its receiver's context field, called on a value whose constructor was
// given that context (a go-zero server's l := logic.NewXLogic(ctx,
// svcCtx); l.X(in), where X defers rl.ReleaseCtx(l.ctx), itself or
// through a method it calls on its own receiver), or through the
// service's own methods and an interface of the package
// with one implementation (in the package, or a type of a package it
// imports: a narrow interface declared for tests over the service or
// client type; or one that sends commands beside in-memory fallbacks
// that send none), or with several that each release under the same
// parameter (a Locker over redislock beside one over redsync), up to a
// few layers and across packages. When the function defers several
// releases under that parameter (a user's lock, then a seat's), the
// report names each.
//
// Silent for context.WithoutCancel, Background and TODO, and a timeout
// made from them in the deferred function; for a WithTimeout longer than
// the constant lease of every lock the function takes (by command, or by
// a lock library's acquire given its TTL: redislock's Obtain), when nothing
// there extends one (the lease has lapsed before the timeout can cut the
// release); for a context parameter of
// an ordinary function, which may well outlive the release, unless its
// caller says otherwise as above; for any
// other release that is not deferred (right after the work, a context
// cancelled by a deferred cancel is still live); and for _test.go files
// (set -tests to check those too). Frameworks whose own context type is
// the context (gin's *gin.Context passed as one) are not followed.
//
// The suggested fix rewrites the deferred call into a deferred function
// that makes the release's context, as above, when every variable the
// call reads keeps its value after the defer (a closure evaluates them at
// exit, not at the defer); in a deferred function literal it makes the
// context before the statement of the release and passes it instead.
package releasectx
