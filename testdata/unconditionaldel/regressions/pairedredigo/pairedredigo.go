// Package pairedredigo pins, on redigo, a job's running key taken with
// SET NX in one helper and deleted in another by the function that runs
// the job, and the start-up DEL of every job's running key spread from a
// slice built in a loop.
package pairedredigo

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

func runningKey(job string) string { return job + ":running" }

func started(conn redis.Conn, job string) bool {
	conn.Do("INCR", "jobs:started")
	ok, _ := redis.String(conn.Do("SET", runningKey(job), time.Now().Unix(), "NX", "EX", 600))
	return ok == "OK"
}

func finished(conn redis.Conn, job string) {
	conn.Do("INCR", "jobs:finished")
	conn.Do("DEL", runningKey(job)) // want "DEL of lock key `runningKey\\(job\\)` \\(taken by `started` and deleted by `finished` in `run`\\)"
}

func run(conn redis.Conn, job string, work func()) {
	if !started(conn, job) {
		return
	}
	defer finished(conn, job)
	work()
}

func reset(conn redis.Conn, jobs []string) {
	keys := make([]interface{}, 0, len(jobs))
	for _, j := range jobs {
		keys = append(keys, runningKey(j))
	}
	conn.Do("DEL", keys...) // want "DEL of lock key `runningKey\\(j\\)`"
}
