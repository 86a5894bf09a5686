package lockmodel

import (
	"go/ast"
	"go/types"
)

// Services split a lock over helpers whose names say nothing: jobStart
// takes runKey(job) with SET NX, jobEnd deletes it, and the function that
// runs the job calls one, does the work, then calls the other with the
// same job. Take, work, drop: a lock, whatever the key is called. Neither
// helper shows it alone, and a helper that sends more than its one
// command is no forwarder, so the model pairs them where they are called.

// keyOp is a command of a function on a key built from one of its
// parameters, directly or through the functions it passes the parameter to.
type keyOp struct {
	param  int    // the parameter the key is built from
	family string // how: "$" for the parameter itself, else its counterFamily
	take   bool   // an acquire; a delete otherwise
	leaf   *Call  // the command
}

// pairing is what pairs finds: the commands taken and dropped by one
// caller, each with why it is a lock's, and the helper-made key families
// such a pair establishes as locks.
type pairing struct {
	calls    map[*Call]Why
	families map[string]Why
}

// maxPairDepth bounds how many helper levels a parameter is followed up.
const maxPairDepth = 3

// pairs finds the acquires and deletes that a function of the package
// pairs through helpers, each with the same argument, the delete after
// the acquire. Built once, before the passes run.
func (m *Model) pairs() pairing {
	ops := map[*types.Func][]keyOp{}
	for _, c := range m.Calls {
		take := c.Acquires()
		// A drop is a delete or an owner-checked release script.
		if !take && !c.Command.IsDelete() && !m.releaseScript(c) || c.Decl == nil || c.Func != c.Decl || c.Via != nil && m.Forwards(c.Via) {
			continue
		}
		if !take && m.clearsRecords(c) {
			// One DEL that also clears a record written with a plain SET
			// (a disconnect marker with its takeover flag) resets state;
			// it gives back no lock.
			continue
		}
		fn, _ := m.Pass.TypesInfo.Defs[c.Decl.Name].(*types.Func)
		if fn == nil {
			continue
		}
		for _, k := range c.Keys {
			if i, fam, ok := m.paramKey(fn, k); ok {
				ops[fn] = append(ops[fn], keyOp{param: i, family: fam, take: take, leaf: c})
			}
			if take {
				break
			}
		}
	}
	if len(ops) == 0 {
		return pairing{}
	}
	// A site is one call of a function with ops, in the caller's body.
	type site struct {
		caller *ast.FuncDecl
		arg    string // the key argument's identity in the caller
		pos    int
		op     keyOp
	}
	var sites []site
	frontier := ops
	for range maxPairDepth {
		next := map[*types.Func][]keyOp{}
		for fn, fops := range frontier {
			for _, s := range m.defs.calls[fn] {
				// A test that takes a key through one wrapper and drops it
				// through another exercises the wrappers; it says nothing
				// of how the code uses them.
				if s.fn == nil || s.call.Ellipsis.IsValid() || m.InTestFile(s.call) {
					continue
				}
				caller, _ := m.Pass.TypesInfo.Defs[s.fn.Name].(*types.Func)
				for _, op := range fops {
					if op.param >= len(s.call.Args) {
						continue
					}
					arg := s.call.Args[op.param]
					sites = append(sites, site{caller: s.fn, arg: m.KeyID(arg), pos: int(s.call.Pos()), op: op})
					// The caller's own parameter, passed on: its callers
					// pair it in turn.
					if caller != nil && caller != fn {
						if i, ok := m.paramOf(caller, arg); ok {
							next[caller] = append(next[caller], keyOp{param: i, family: op.family, take: op.take, leaf: op.leaf})
						}
					}
				}
			}
		}
		if len(next) == 0 {
			break
		}
		frontier = next
	}
	// Deletes grouped by caller, argument and family: each take looks only
	// at its own group.
	type group struct {
		caller *ast.FuncDecl
		arg    string
		family string
	}
	drops := map[group][]site{}
	for _, d := range sites {
		if !d.op.take {
			g := group{d.caller, d.arg, d.op.family}
			drops[g] = append(drops[g], d)
		}
	}
	p := pairing{calls: map[*Call]Why{}, families: map[string]Why{}}
	for _, t := range sites {
		if !t.op.take || m.readFams[t.op.family] {
			continue
		}
		for _, d := range drops[group{t.caller, t.arg, t.op.family}] {
			if d.pos <= t.pos || t.op.leaf.Decl == d.op.leaf.Decl {
				// A drop before the take pairs nothing; one helper that
				// both takes and drops is the same-function evidence's.
				continue
			}
			if m.undoneByCallers(d.op.leaf, d.op.leaf.Key()) {
				// Called only when the work failed, by callers that
				// keep the key when it succeeded: a claim's undo.
				continue
			}
			why := Why{Take: t.op.leaf.Decl, Drop: d.op.leaf.Decl, Caller: t.caller}
			p.calls[t.op.leaf], p.calls[d.op.leaf] = why, why
			if t.op.family != "$" {
				p.families[t.op.family] = why
			}
		}
	}
	return p
}

// paramKey reports which parameter of fn key is built from and how: the
// parameter itself ("$"), or a key of a helper-made family (runKey(job),
// "job:" + id) that names it.
func (m *Model) paramKey(fn *types.Func, key ast.Expr) (int, string, bool) {
	if i, ok := m.paramOf(fn, key); ok {
		return i, "$", true
	}
	idx := m.namedParam(fn, key)
	if idx < 0 {
		return 0, "", false
	}
	fam, ok := m.counterFamily(key)
	if !ok || fam == "" {
		return 0, "", false
	}
	return idx, fam, true
}

// namedParam returns the index of the first parameter of fn that e
// names, or -1.
func (m *Model) namedParam(fn *types.Func, e ast.Expr) int {
	idx := -1
	info := m.Pass.TypesInfo
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && idx < 0 {
			if p, ok := m.defs.params[info.Uses[id]]; ok && p.fn == fn {
				idx = p.index
			}
		}
		return idx < 0
	})
	return idx
}

// paramOf reports whether e is a parameter of fn, and its index.
func (m *Model) paramOf(fn *types.Func, e ast.Expr) (int, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return 0, false
	}
	p, ok := m.defs.params[m.Pass.TypesInfo.Uses[id]]
	if !ok || p.fn != fn {
		return 0, false
	}
	if v, _ := m.Pass.TypesInfo.Uses[id].(*types.Var); v != nil && len(m.defs.assigns(v)) > 0 {
		// Reassigned in the body: no longer the caller's.
		return 0, false
	}
	return p.index, true
}

// plainRecords returns the families of keys written with a plain SET
// and never taken with NX: records, whatever they are named.
func (m *Model) plainRecords() map[string]bool {
	var out map[string]bool
	for _, c := range m.Calls {
		if c.Command != CmdSet || c.Acquires() || c.Key() == nil {
			continue
		}
		if fam, ok := m.counterFamily(c.Key()); ok {
			if out == nil {
				out = map[string]bool{}
			}
			out[fam] = true
		}
	}
	for _, c := range m.Calls {
		if c.Acquires() && c.Key() != nil {
			if fam, ok := m.counterFamily(c.Key()); ok {
				delete(out, fam)
			}
		}
	}
	return out
}

// clearsRecords reports whether c, a delete of several keys, deletes a
// key of a plain record's family with them.
func (m *Model) clearsRecords(c *Call) bool {
	if len(c.Keys) < 2 || len(m.plainRecs) == 0 || !c.Command.IsDelete() {
		return false
	}
	for _, k := range c.Keys {
		if fam, ok := m.counterFamily(k); ok && m.plainRecs[fam] {
			return true
		}
	}
	return false
}
