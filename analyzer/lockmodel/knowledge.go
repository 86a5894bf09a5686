package lockmodel

import (
	"go/types"
	"strings"

	"github.com/locklint/locklint/internal/typesx"
)

// What the model knows about functions outside the Redis clients, as data
// keyed by package path and name, the way staticcheck keeps its knowledge
// package. Token origins, the calls that end a function, and the packages
// whose use marks a helper as making fresh values all read this table.

// api is what a known function does, for the model's questions.
type api uint8

const (
	apiNone api = iota
	// apiFresh returns a value made fresh per call: crypto/rand, random
	// UUIDs.
	apiFresh
	// apiClock reads the clock.
	apiClock
	// apiProcess returns the same value for every call in a process: the
	// host name, the process id, the environment.
	apiProcess
	// apiMathRand draws from math/rand.
	apiMathRand
	// apiNameBased is a name-based UUID: as unique as the name it hashes,
	// its second argument.
	apiNameBased
	// apiPassThrough returns its argument's value (uuid.Must).
	apiPassThrough
	// apiNoReturn ends the function: os.Exit, log.Fatal, runtime.Goexit.
	apiNoReturn
	// apiOwnerChecked is the lock library's release or renewal, which
	// sends the token back for the server to compare.
	apiOwnerChecked
	// apiObtain is the lock library's acquire, which returns the lock
	// or an error (ErrNotObtained when another holds it).
	apiObtain
)

// anyName stands for every function of a package.
const anyName = "*"

var uuidAPI = map[string]api{
	"New": apiFresh, "NewString": apiFresh, "NewRandom": apiFresh, "NewV4": apiFresh, "NewV7": apiFresh,
	"NewUUID": apiFresh, "NewV1": apiFresh, "NewV6": apiFresh,
	"Must":   apiPassThrough,
	"NewMD5": apiNameBased, "NewSHA1": apiNameBased, "NewV3": apiNameBased, "NewV5": apiNameBased,
}

// freshPackages are the packages whose use in a helper's body makes what
// it returns fresh.
var freshPackages = map[string]bool{
	"crypto/rand": true, "github.com/google/uuid": true, "github.com/gofrs/uuid": true, "github.com/gofrs/uuid/v5": true,
	"github.com/satori/go.uuid": true,
}

// hostAddrFuncs list the host's own addresses: a helper that reads one
// off them and returns it names the host, the same in every process
// there.
var hostAddrFuncs = map[string]bool{"net.Interfaces": true, "net.InterfaceAddrs": true}

// libraryAPI are the lock library's functions the model knows: those that
// send a token back, and the acquire; the same in the go-redis v9 front
// and in the core, which takes an adapter's client.
var libraryAPI = map[string]api{"Release": apiOwnerChecked, "Refresh": apiOwnerChecked, "Obtain": apiObtain}

var knowledge = map[string]map[string]api{
	"crypto/rand":  {anyName: apiFresh},
	"math/rand":    {anyName: apiMathRand},
	"math/rand/v2": {anyName: apiMathRand},
	"time":         {"Now": apiClock, "Since": apiClock, "Until": apiClock},
	"os": {
		"Getpid": apiProcess, "Getppid": apiProcess, "Getuid": apiProcess, "Getenv": apiProcess,
		"Hostname": apiProcess, "Executable": apiProcess, "Getwd": apiProcess,
		"Exit": apiNoReturn,
	},
	// A goroutine's id (runtime.Stack's first line, or goid.Get) is the
	// same for every acquisition of that goroutine, and repeats across
	// processes.
	"runtime":                     {"Goexit": apiNoReturn, "Stack": apiProcess},
	"github.com/petermattis/goid": {"Get": apiProcess},
	"log": {
		"Fatal": apiNoReturn, "Fatalf": apiNoReturn, "Fatalln": apiNoReturn,
		"Panic": apiNoReturn, "Panicf": apiNoReturn, "Panicln": apiNoReturn,
	},
	LibraryPath:                libraryAPI,
	CorePath:                   libraryAPI,
	"github.com/google/uuid":   uuidAPI,
	"github.com/gofrs/uuid":    uuidAPI,
	"github.com/gofrs/uuid/v5": uuidAPI,
	// gofrs/uuid's predecessor.
	"github.com/satori/go.uuid": uuidAPI,
	// goframe's clock.
	"github.com/gogf/gf/v2/os/gtime": {
		"Now": apiClock, "Timestamp": apiClock, "TimestampMilli": apiClock, "TimestampMicro": apiClock,
		"TimestampNano": apiClock, "TimestampStr": apiClock, "TimestampMilliStr": apiClock,
		"TimestampMicroStr": apiClock, "TimestampNanoStr": apiClock,
	},
}

// releaseMethods are other lock libraries' releases that send their
// command under the context they are given, keyed by FullName: a caller's
// cancelled context fails them and leaves the lock until its TTL.
var releaseMethods = map[string]bool{
	"(*github.com/go-redsync/redsync/v4.Mutex).UnlockContext": true,
	"(*github.com/bsm/redislock.Lock).Release":                true,
	// go-zero's lock runs its compare-and-delete script, an embedded
	// file, through the framework's own client.
	"(*github.com/zeromicro/go-zero/core/stores/redis.RedisLock).ReleaseCtx": true,
}

// releaseNames and acquireNames are the short names of releaseMethods'
// and lockAcquires' functions.
var releaseNames, acquireNames = shortNames(releaseMethods), shortNames(lockAcquires)

func shortNames(full map[string]bool) map[string]bool {
	out := map[string]bool{}
	for name := range full {
		out[name[strings.LastIndexByte(name, '.')+1:]] = true
	}
	return out
}

// knownFunc reports whether fn's FullName is in full. The short name is
// asked first: FullName builds a string, and the passes ask this of
// every call they look at.
func knownFunc(fn *types.Func, full, short map[string]bool) bool {
	return fn != nil && short[fn.Name()] && full[fn.Origin().FullName()]
}

// lockAcquires are other lock libraries' acquires, keyed by FullName:
// each tries a bounded number of times and reports failure, so a caller
// that calls one again in a loop is retrying an acquire.
var lockAcquires = map[string]bool{
	"(*github.com/go-redsync/redsync.Mutex).Lock":              true,
	"(*github.com/go-redsync/redsync/v4.Mutex).Lock":           true,
	"(*github.com/go-redsync/redsync/v4.Mutex).LockContext":    true,
	"(*github.com/go-redsync/redsync/v4.Mutex).TryLock":        true,
	"(*github.com/go-redsync/redsync/v4.Mutex).TryLockContext": true,
	"github.com/bsm/redislock.Obtain":                          true,
	"(*github.com/bsm/redislock.Client).Obtain":                true,
}

// valueOptions are other lock libraries' options that replace how they
// make a lock's value, keyed by FullName: the function given is the
// token's origin, and the library's release and extend scripts compare
// the value it returns.
var valueOptions = map[string]bool{
	"github.com/go-redsync/redsync/v4.WithGenValueFunc": true,
}

var valueOptionNames = shortNames(valueOptions)

// LibraryAcquire reports whether fn is a known lock library's acquire.
func LibraryAcquire(fn *types.Func) bool {
	return knownFunc(fn, lockAcquires, acquireNames)
}

// ReleasesUnder returns the index of the context parameter of fn when fn
// is a known lock library's release that runs under that context.
func ReleasesUnder(fn *types.Func) (int, bool) {
	if !knownFunc(fn, releaseMethods, releaseNames) {
		return 0, false
	}
	ps := fn.Type().(*types.Signature).Params()
	for i := range ps.Len() {
		if typesx.IsContext(ps.At(i).Type()) {
			return i, true
		}
	}
	return 0, false
}

// lookup returns what the model knows of a package-level function (not a
// method: a method of a known package's type is only as known as its
// receiver).
func lookup(fn *types.Func) api {
	if fn == nil || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return apiNone
	}
	byName := knowledge[fn.Pkg().Path()]
	if a, ok := byName[fn.Name()]; ok {
		return a
	}
	return byName[anyName]
}
