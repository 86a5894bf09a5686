// Package idgen is a service's utility package: it makes ids and tokens
// and never touches Redis, so what its functions return reaches the
// acquires in other packages only as facts.
package idgen

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand"
	"os"
	"runtime"
	"strconv"
	"time"
)

const letters = "abcdefghijklmnopqrstuvwxyz0123456789"

// RandString seeds math/rand from the clock on every call.
func RandString(n int) string {
	r := mrand.New(mrand.NewSource(time.Now().UnixNano()))
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[r.Intn(len(letters))]
	}
	return string(b)
}

// Host names the process, not the acquisition.
func Host() string {
	h, _ := os.Hostname()
	return h + ":" + strconv.Itoa(os.Getpid())
}

// Stamp is the clock.
func Stamp() string { return strconv.FormatInt(time.Now().UnixNano(), 10) }

// Owner is the same on every call.
func Owner() string { return "billing-worker" }

var instance = NewToken()

// Instance is made once per process.
func Instance() string { return instance }

// NewToken is 128 bits from crypto/rand.
func NewToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Prefixed returns the caller's part: its origin is the caller's.
func Prefixed(prefix string) string { return prefix + "-" + strconv.Itoa(os.Getpid()) }

// Pattern repeats the alphabet: no randomness, so no origin to report.
func Pattern(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[i%len(letters)]
	}
	return string(b)
}

// GoID parses the goroutine id from the stack header.
func GoID() uint64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	field := bytes.Fields(buf)[1]
	id, _ := strconv.ParseUint(string(field), 10, 64)
	return id
}

// Worker is the process and goroutine: the same for every acquisition of
// a goroutine, and the same in two containers that both run as pid 1.
func Worker() string { return fmt.Sprintf("%d_%d", os.Getpid(), GoID()) }

// keep is unexported: no fact, and nothing outside can call it.
func keep() string { return "x" }

var _ = keep
