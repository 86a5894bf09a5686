// Package constanttoken defines an Analyzer that reports locks acquired
// with a token that is not unique per acquisition.
//
// # Analyzer constanttoken
//
// constanttoken: report lock acquires whose token is not unique per acquisition
//
// The value an acquire (SETNX, SET NX) stores in the lock key is how the
// holder later proves it still owns the lock: release and renewal compare
// it atomically (DELEX IFEQ, SET IFEQ, a Lua script) before they touch the
// key. That proof holds only if no other acquisition stored the same
// value. With a constant, a host name or process id, a loop counter (every
// replica's worker 3 stores the same), or a token made once and reused, a
// holder whose lease expired passes the owner check on the
// next holder's lock, and its release deletes that lock:
//
//	host, _ := os.Hostname()
//	ok, err := rdb.SetNX(ctx, "lock:job", host, 30*time.Second).Result() // every acquisition on this host stores the same value
//
// Store a fresh random token for every acquisition, and compare with it on
// release:
//
//	token := rand.Text() // crypto/rand: 128 bits, new for this acquisition
//	ok, err := rdb.SetNX(ctx, "lock:job", token, 30*time.Second).Result()
//
// or use fix.Obtain from github.com/locklint/locklint/analyzer/fix, which
// does this and returns a handle that releases and renews with the token.
//
// Package fix takes a go-redis v9 client; for go-redis v8, redigo,
// rueidis and valkey-go the message names lock.Obtain from the library's
// core, github.com/locklint/locklint/analyzer/fix/lock, with the client's
// adapter (fixredigo.Conn and the like), and for a client with no adapter
// (go-redis v6 and v7, garyburd/redigo, goframe) the core alone.
//
// The analyzer reports an acquire of a lock key whose value is, after
// following local variables, helpers (of the package, and exported
// functions of other packages of the module, through facts, such as a
// util.RandString), an interface's methods through what their
// implementations in the package return (when they agree: a weak one
// beside a fresh one is not followed), struct fields, and what is written
// into a slice, a bytes.Buffer or a strings.Builder:
//
//   - a literal or constant (1, "locked", true), or a package-level
//     variable, or a literal a Lua acquire writes itself (SET KEYS[1] 1
//     NX) when a release or renewal of the package compares the key's
//     value with its caller's;
//   - the process's identity alone or formatted with constants: os.Hostname,
//     os.Getpid, os.Getenv, and a goroutine's id (parsed from
//     runtime.Stack, or goid.Get), which is the same for every acquisition
//     of the goroutine and repeats in processes that share a pid, as
//     containers do;
//   - drawn from math/rand or math/rand/v2 from a source seeded alike in
//     every process (a constant seed, or none before Go 1.20) or from the
//     clock (processes started in one tick draw alike, and the draws can
//     be guessed), or once for many acquisitions (a package-level
//     variable, a constructor's field), or as one number of a small
//     range (rand.Intn(1000)). A wide draw per acquisition (rand.Int(),
//     sixteen random letters) from the global source that the runtime
//     seeds at random (math/rand/v2, or math/rand from Go 1.20 on in a
//     package that never calls rand.Seed) is as unique as the owner check
//     that compares it needs, and is not reported;
//   - read from the clock (time.Now().UnixNano() and what is formatted from
//     it): acquisitions in one tick collide, and the value is guessable;
//   - a struct field set only by the struct's constructor, read by an
//     acquire whose key is a constant or a parameter: one value of the type
//     takes many locks, or the same lock many times, with one token;
//   - a local variable made once and reused by a loop that releases or
//     renews the lock and acquires it again: a renewal or release still
//     in flight from one round passes the owner check of the next. A GET
//     compared with the value gives nothing back and does not count (a
//     user's seat holds, each skipped when the user already holds it).
//
// So is the function given to a lock library as the maker of its values
// (redsync.WithGenValueFunc(f)) when what it returns is one of these:
// the library's release and extend scripts compare that value. The
// finding is at the option.
//
// A lock package's exported constructor that keeps a parameter in the
// field its acquire stores (dlock.NewMutex(client, key, owner)), with no
// other code setting that field, leaves the token to its callers: a call
// in another package that gives it one of these values is reported there.
//
// A clock reading joined with the holder's own identity, kept in a field
// since the holder was made (a UUID its constructor draws, or an
// instance id its maker gives the constructor, when the key is not built
// from the struct's fields), stays silent: the identity separates
// processes and the clock one holder's successive rounds
// (r.instanceID + ":" + now). So does a snowflake id: the clock joined
// with a sequence that its generator steps on each call (and a machine
// id), unique per call rather than per tick.
//
// A token made once per call and reused by the retries of that one
// acquisition is correct and stays silent, as are tokens from crypto/rand,
// github.com/google/uuid and github.com/gofrs/uuid, helpers of the package
// whose body draws from those, a token passed in as a parameter, and any
// value whose origin the analyzer cannot follow. A key that is built from
// the fields of the struct holding the token (l.key, "lock:"+l.name, or a
// getter l.Key()) makes that struct a handle for one lock, usually made
// per acquisition, and a token set in its constructor stays silent.
// A leader lease is held by a process, not by a critical section: an
// identity drawn once for the process or instance (a UUID its
// constructor makes, host and start time, its start time alone
// ("agg-<UnixNano>"), or a math/rand draw a
// constructor keeps when each process seeds its source its own way, from
// the clock or by the runtime), or one its maker gives the constructor
// (a replica's id), is unique to its holder and stays silent
// there. A lease is known by its key's words (leader, election,
// singleton), or by what the function that takes it writes (s.IsMaster =
// true) or calls its TTL (masterKeepTime), or by the function's own name
// (TryAcquireMaster); a leader that takes a lapsed lease again under the
// identity it held it by is the same holder, and stays silent too.
// Elsewhere such a value is shared by every acquisition of the process
// and is reported.
//
// An acquire of a key that nothing in the package releases, renews or
// reads back stays silent too: a once-per-period marker, an init marker
// held in a field of a type whose methods only ever take it (and name
// it in a log line: a tick-scoped leader marker), or a
// setting's default written at start-up whose error alone is returned,
// also when taken through the service's own layer that forwards the
// command (r.op.SetNx(ctx, key, "", interval)), or when the acquire's
// result is returned (a TryLock gate) on a key that is an unexported
// constant the package names only in its commands, or on a key that an
// unexported helper builds itself from a text with no lock word and
// keeps (a gate whose name alone calls it a lock:
// acquirePruneLock() bool taking "ci:prune:<hash>"), unless some call of
// the package hands such a key to code the analyzer does not read; so
// does a key that an unexported constant names or prefixes (beaconPrefix
// + id) when the package names that constant nowhere else and the helper
// that takes it drops no key: no command here touches the key again, and
// no caller can name it. Another
// take of a key that may be this one (a throttle helper's SETNX of its
// parameter) releases nothing and does not count, nor does a helper's
// delete of its parameter when every caller makes that key with the
// marker's own key maker and another constant (a deduplication flag
// keys.Key(collectLockTempl, id) beside the set keys.Key(collectTempl,
// id) that a helper reads and deletes). No owner check reads
// its value, so there is nothing a token protects.
// So does any of these values (a constant, the process's identity, a
// clock reading, a math/rand draw) that the acquire makes itself, or
// makes of locals named nowhere else, or that every caller of an
// unexported helper makes at the call and the helper only stores
// (tryLock(user, goods, time.Now().Unix())), when the package deletes
// or expires the key with a plain DEL or EXPIRE (also through a release
// helper that the callers pair with the acquire's, on the same key
// argument) and no script, IFEQ or compared GET of the package reads
// its value (nor a script whose text the analyzer cannot read): checked
// by nobody, the value is not the lock's defect; its plain DEL is, and
// unconditionaldel reports it once, naming the value when it knows the
// acquire (its remedy takes the lock with fix.Obtain too, and it offers
// no rewrite of the release that would compare a value every holder
// stores). Such a value that leaves the function (returned, kept in a
// field) may be compared where the package cannot see, and is reported.
// Acquires in _test.go files, which store fixed values on purpose, are
// checked only with -tests, and a field value that only a _test.go file
// stores (a mock node's id) is not what the code under test is given.
//
// There is no suggested fix: the token is compared again on release and
// renewal, often in another function, in a Lua script or in another
// service, and a rewrite of the acquire alone could leave those comparing
// with the old value.
package constanttoken
