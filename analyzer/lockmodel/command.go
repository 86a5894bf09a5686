package lockmodel

// What a command is: the normalized Redis commands, the options of SET
// and DELEX, and the client libraries a call is sent through.

// Command is a normalized Redis command.
type Command uint8

// The commands the passes reason about. Everything else a client sends is
// CmdOther and is recorded only for its position in pipelines.
const (
	CmdOther Command = iota
	CmdSetNX
	CmdSet
	CmdGet
	CmdDel
	CmdUnlink
	CmdDelEx
	CmdExpire
	CmdPExpire
	CmdExpireAt
	CmdPExpireAt
	CmdIncr
	CmdEval // EVAL, EVALSHA, EVAL_RO and script Run helpers
	CmdMulti
	CmdExec
	CmdWatch
	// CmdDecr is DECR and DECRBY: the reply is a count that each caller
	// sees once, as INCR's is.
	CmdDecr
	// CmdGetDel is GETDEL: a delete with no condition that returns what
	// it deleted, read as a GET's reply is.
	CmdGetDel
)

var commandNames = [...]string{
	CmdOther:     "OTHER",
	CmdSetNX:     "SETNX",
	CmdSet:       "SET",
	CmdGet:       "GET",
	CmdDel:       "DEL",
	CmdUnlink:    "UNLINK",
	CmdDelEx:     "DELEX",
	CmdExpire:    "EXPIRE",
	CmdPExpire:   "PEXPIRE",
	CmdExpireAt:  "EXPIREAT",
	CmdPExpireAt: "PEXPIREAT",
	CmdIncr:      "INCR",
	CmdEval:      "EVAL",
	CmdMulti:     "MULTI",
	CmdExec:      "EXEC",
	CmdWatch:     "WATCH",
	CmdDecr:      "DECR",
	CmdGetDel:    "GETDEL",
}

func (c Command) String() string {
	if int(c) < len(commandNames) {
		return commandNames[c]
	}
	return "OTHER"
}

// IsExpire reports whether c sets a key's TTL on its own.
func (c Command) IsExpire() bool {
	return c == CmdExpire || c == CmdPExpire || c == CmdExpireAt || c == CmdPExpireAt
}

// Writes reports whether c stores a value (SET, SETNX).
func (c Command) Writes() bool { return c == CmdSet || c == CmdSetNX }

// IsDelete reports whether c removes keys unconditionally.
func (c Command) IsDelete() bool { return c == CmdDel || c == CmdUnlink || c == CmdGetDel }

// ReadsValue reports whether c's reply is the key's value (GET, GETDEL).
func (c Command) ReadsValue() bool { return c == CmdGet || c == CmdGetDel }

// Flags are the options of a SET-family or DELEX command.
type Flags uint16

// Options recognised on SET and DELEX.
const (
	FlagNX Flags = 1 << iota
	FlagXX
	FlagIFEQ // owner-checked: SET ... IFEQ, DELEX ... IFEQ
	FlagKeepTTL
	FlagGet
	// FlagUnknown marks options the model could not read (a SetArgs
	// variable, a spread argument list); passes stay silent on them.
	FlagUnknown
)

// Client is a Redis client library.
type Client uint8

// The client libraries locklint understands.
const (
	GoRedis Client = iota + 1
	Redigo
	Rueidis
	GoFrame
)

func (c Client) String() string {
	switch c {
	case GoRedis:
		return "go-redis"
	case Redigo:
		return "redigo"
	case Rueidis:
		return "rueidis"
	case GoFrame:
		return "goframe"
	}
	return "unknown"
}
