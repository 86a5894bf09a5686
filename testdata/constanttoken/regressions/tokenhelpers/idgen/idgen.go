// Package idgen is a service's utility package: it makes ids and tokens
// and never touches Redis, so what its functions return reaches the
// acquires in other packages only as facts.
package idgen

import (
	"crypto/rand"
	"encoding/hex"
	mrand "math/rand"
	"os"
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

// keep is unexported: no fact, and nothing outside can call it.
func keep() string { return "x" }

var _ = keep
