package lockmodel

// Pair is an acquire that sets no TTL followed, in the same function, by a
// separate EXPIRE-family command on the same key. setnxexpire reports the
// pair; plainpexpire must not report its EXPIRE a second time.
type Pair struct {
	Acquire *Call
	Expire  *Call
}

// SplitAcquires returns every SETNX (or SET NX without a TTL) whose TTL is
// set by a later, separate command in the same function, and every INCR
// of a lock key used as an acquire (== 1) whose TTL is set that way.
// Counters (INCR then EXPIRE of a rate-limit window) are not lock keys.
func (m *Model) SplitAcquires() []Pair {
	var out []Pair
	for _, a := range m.Calls {
		if a.Key() == nil {
			continue
		}
		if !(a.Acquires() && a.NoTTL) && !(a.TakesFirst && m.IsLockKey(a, a.Key())) {
			continue
		}
		for _, e := range m.Calls {
			if !e.Command.IsExpire() || e.Func != a.Func || e.Pos() < a.End() || e.Key() == nil {
				continue
			}
			if m.SameKey(a, a.Key(), e, e.Key()) {
				out = append(out, Pair{Acquire: a, Expire: e})
				break
			}
		}
	}
	return out
}
