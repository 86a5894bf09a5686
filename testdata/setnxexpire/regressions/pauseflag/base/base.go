// Package base makes a task queue's keys, one function per kind.
package base

func PausedKey(qname string) string { return "asynq:{" + qname + "}:paused" }

func SchedulerLockKey(qname string) string { return "asynq:{" + qname + "}:scheduler:lock" }
