// Package task runs the cron jobs that take their locks through rutil.
package task

import (
	"log"

	"locklint.test/unconditionaldel/regressions/unlockutil/rutil"
)

const sendMailLockKey = "lock:send_email_task:"

func sendMail() {
	key := sendMailLockKey + "sendEmailTask"
	if !rutil.Lock(key, 4) {
		log.Println("busy")
		return
	}
	defer rutil.UnLock(key)
	send()
}

func send() {}

// A cache entry dropped through the forwarding Delete: no lock.
func dropCache(id string) {
	rutil.Delete("cache:" + id)
}
