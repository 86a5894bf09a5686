// Package cache wraps a redigo pool in a struct whose Do takes the
// command's name and arguments, gets a connection, logs slow commands and
// puts the connection back: the service's code calls it, never redigo.
package cache

import (
	"log"
	"time"

	"github.com/gomodule/redigo/redis"
)

type Conn struct {
	pool  *redis.Pool
	debug bool
}

func (c *Conn) Do(name string, args ...any) (any, error) {
	conn := c.pool.Get()
	defer conn.Close()
	start := time.Now()
	reply, err := conn.Do(name, args...)
	if err != nil {
		log.Println("cache.Do", name, err)
	}
	if c.debug {
		log.Println("cache.Do", name, time.Since(start))
	}
	return reply, err
}

var shared *Conn

func Instance() *Conn {
	if shared == nil {
		shared = &Conn{pool: &redis.Pool{Dial: func() (redis.Conn, error) { return redis.Dial("tcp", "localhost:6379") }}}
	}
	return shared
}
