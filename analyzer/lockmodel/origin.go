package lockmodel

import "go/ast"

// Origin is where the value an acquire stores comes from, as far as the
// type checker and local data flow can tell.
type Origin uint8

// Origins. The kinds after OriginFresh are not unique per acquisition and
// are ordered from the least to the most entropy: a value built from
// several of them has the kind of its strongest part.
const (
	// OriginUnknown is a parameter, a function of another package, or a
	// shape the model does not follow. Passes stay silent on it.
	OriginUnknown Origin = iota
	// OriginFresh is generated per evaluation: crypto/rand, a random UUID,
	// or a helper of this package whose body uses one of them.
	OriginFresh
	// OriginConstant is a literal or a constant.
	OriginConstant
	// OriginProcess is the same for every acquisition of a process: the
	// host name, the process id, an environment variable.
	OriginProcess
	// OriginOnce is computed once and kept: a package-level variable, or a
	// field set only when its struct is constructed.
	OriginOnce
	// OriginClock is read from the clock (time.Now and what is computed
	// from it): two acquisitions in one tick get the same value.
	OriginClock
	// OriginMathRand comes from math/rand or math/rand/v2.
	OriginMathRand
)

// Weak reports whether o is known not to be unique per acquisition.
func (o Origin) Weak() bool { return o >= OriginConstant }

// TokenOrigin is the origin of an acquire's value, with the part that
// decided it and the way the value came from there (Trail), and where
// that part is (a declaration or a store), for the diagnostic.
type TokenOrigin struct {
	Origin Origin
	Trail  Trail
	At     ast.Node
	// Drawn is set on an OriginOnce value that was fresh when drawn (a
	// UUID made by a constructor or at start-up): unique to the process
	// or instance that keeps it, and shared by all its acquisitions. It is
	// set too on a math/rand draw a constructor keeps, when each process
	// seeds its source its own way (randPerProcess).
	Drawn bool
	// Instance is set on a value that joins the host name with a clock
	// reading or the pid: made once, at a process's start, it names that
	// process (host-<start time>, host-<pid>), as a drawn value does.
	Instance bool
	// Given is set on an OriginOnce field that its constructor copies
	// from a value the model cannot follow (a parameter): an identity
	// the holder's maker chose for it, not the lock's name, since the
	// key is not built from the struct's fields.
	Given bool
}

// origin is a value of origin o whose source is of kind k, named name.
func origin(o Origin, k SourceKind, name string, at ast.Node) TokenOrigin {
	return TokenOrigin{Origin: o, Trail: Trail{Source: Source{Kind: k, Name: name}}, At: at}
}

// Trail is how a value came from the part that decided its origin: the
// package-level variables, parameters and fields it passed through,
// outermost first, that part, and the helper function that returned it.
// It is plain data, so that a TokenHelper fact carries it to the packages
// that call the helper.
type Trail struct {
	Through []Step
	Source  Source
	// Helper is the function the value is returned by, as the acquire's
	// function sees it: the outermost helper only, pkg.Func for another
	// package's.
	Helper string
}

// Step is a variable the value passed through.
type Step struct {
	Kind StepKind
	Name string
}

// StepKind is the kind of variable a Step is.
type StepKind uint8

const (
	// StepVar is a package-level variable.
	StepVar StepKind = iota + 1
	// StepParam is a parameter, given the rest of the trail by the
	// callers of its function.
	StepParam
	// StepField is a struct field.
	StepField
)

// Source is the part of a value that decided its origin.
type Source struct {
	Kind SourceKind
	// Name is what the part is, as its kind says.
	Name string
}

// SourceKind is the kind of part a Source is.
type SourceKind uint8

const (
	// SourceConstant: Name is the constant expression's source text.
	SourceConstant SourceKind = iota + 1
	// SourceConstants: a value made of constants only (a constant format).
	SourceConstants
	// SourceCounter: Name is a loop counter, the same in every process.
	SourceCounter
	// SourceFunc: Name is a function, pkg.Func for another package's.
	SourceFunc
	// SourcePath: Name is a package or function by its path
	// (crypto/rand, math/rand.Read).
	SourcePath
	// SourceGoroutineID: the goroutine id, read from runtime.Stack.
	SourceGoroutineID
	// SourceSetOnce: the variable is set once, by the constructor Name
	// or, when Name is "", once per process.
	SourceSetOnce
)

// through returns t with s as its outermost step.
func (t Trail) through(s Step) Trail {
	t.Through = append([]Step{s}, t.Through...)
	return t
}

// How the origins of a value's parts combine.

// concat combines the parts of one value: any fresh part makes it fresh;
// otherwise it has the kind of its strongest part. An unknown part makes
// it unknown, unless a clock or math/rand part is what the value counts on
// for uniqueness: a caller's prefix (a name, a host) does not rescue
// prefix+time.Now().UnixNano()+rand.Int63(). A holder's own identity
// kept since its construction (drawn, or given by its maker) joined with
// a clock reading is unique to the holder and the round: no origin. No
// parts (a constant format)
// is a constant.
func concat(parts ...TokenOrigin) TokenOrigin {
	drawn, given, goroutine, clock := false, false, false, false
	for _, p := range parts {
		if p.Origin == OriginFresh {
			return p
		}
		drawn = drawn || p.Origin == OriginOnce && p.Drawn
		given = given || p.Origin == OriginOnce && p.Given
		clock = clock || p.Origin == OriginClock
		goroutine = goroutine || p.Trail.Source.Kind == SourceGoroutineID || p.Trail.Source.Kind == SourceFunc && p.Trail.Source.Name == "goid.Get"
	}
	if drawn && goroutine {
		// A process's id drawn fresh once, joined with a goroutine's
		// id, names one goroutine of one process: a reentrant lock's
		// owner (Redisson's), shared by that goroutine's acquisitions by
		// design.
		return TokenOrigin{}
	}
	if clock && (drawn || given) {
		// The holder's own identity (drawn once, or given to its
		// constructor) separates processes, and the clock separates one
		// holder's successive acquisitions: instanceID + ":" + now.
		return TokenOrigin{}
	}
	best := origin(OriginConstant, SourceConstants, "", nil)
	unknown := false
	for _, p := range parts {
		if p.Origin == OriginUnknown {
			unknown = true
			continue
		}
		if p.Origin >= best.Origin {
			best = p
		}
	}
	if unknown && best.Origin < OriginClock {
		return TokenOrigin{}
	}
	host, pid, instance := false, false, false
	for _, p := range parts {
		host = host || processFunc(p, "os.Hostname") || processFunc(p, "net.Interfaces") || processFunc(p, "net.InterfaceAddrs")
		pid = pid || processFunc(p, "os.Getpid")
		instance = instance || p.Instance
	}
	// A host name with a start time, or with a pid, names one live
	// process: no two running at once share either pair.
	named := best.Origin == OriginClock || best.Origin == OriginProcess
	best.Instance = named && instance || best.Origin == OriginClock && host && clock ||
		best.Origin == OriginProcess && host && pid
	return best
}

// processFunc reports whether p is what the process-identity function
// name returned.
func processFunc(p TokenOrigin, name string) bool {
	return p.Origin == OriginProcess && p.Trail.Source.Kind == SourceFunc && p.Trail.Source.Name == name
}

// alt combines values one of which is the token: weak only when all are.
func alt(srcs []TokenOrigin) TokenOrigin {
	if len(srcs) == 0 {
		return TokenOrigin{}
	}
	best := srcs[0]
	for _, s := range srcs[1:] {
		if !s.Origin.Weak() || !best.Origin.Weak() {
			if s.Origin == OriginFresh && best.Origin == OriginFresh {
				continue
			}
			return TokenOrigin{}
		}
		if s.Origin > best.Origin {
			best = s
		}
	}
	return best
}
