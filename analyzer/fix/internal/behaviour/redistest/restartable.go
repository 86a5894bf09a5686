package redistest

import (
	"net"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// Restartable is a redis-server that a test can kill with SIGKILL and start
// again on the same port and directory, so that clients reconnect to the
// same address and, with AOF, the server reloads what it had written.
type Restartable struct {
	Addr string
	t    testing.TB
	bin  string
	argv []string
	cmd  *exec.Cmd
	done chan struct{}
}

// StartRestartable runs redis-server on a free loopback port. With aof it
// appends every write and fsyncs it before replying (appendfsync always),
// the strongest durability Redis offers; without, it persists nothing.
func StartRestartable(t testing.TB, aof bool) *Restartable {
	t.Helper()
	return startRestartable(t, aof)
}

// StartRestartableCluster runs a Redis Cluster of n masters without
// replicas, each a Restartable without persistence: a killed master comes
// back on its port with its node configuration (nodes.conf, in its
// directory) but no data. The node timeout is long, so the surviving
// masters keep serving their slots while one is down.
func StartRestartableCluster(t testing.TB, n int) []*Restartable {
	t.Helper()
	nodes := make([]*Restartable, n)
	addrs := make([]string, n)
	for i := range nodes {
		nodes[i] = startRestartable(t, false, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "30000")
		addrs[i] = nodes[i].Addr
	}
	createCluster(t, addrs)
	return nodes
}

func startRestartable(t testing.TB, aof bool, extra ...string) *Restartable {
	t.Helper()
	bin := Require(t, "redis-server")
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	r := &Restartable{
		Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		t:    t,
		bin:  bin,
		argv: []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--dir", t.TempDir()},
	}
	if aof {
		r.argv = append(r.argv, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		r.argv = append(r.argv, "--appendonly", "no")
	}
	r.argv = append(r.argv, extra...)
	r.Restart()
	t.Cleanup(r.Kill)
	return r
}

// Kill sends SIGKILL and waits for the process to exit: no shutdown save,
// no flush beyond what the fsync policy already did.
func (r *Restartable) Kill() {
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	<-r.done
	r.cmd = nil
}

// Restart starts the server again (or for the first time) and waits until
// it answers PING, which with AOF is after the file has been loaded.
func (r *Restartable) Restart() {
	r.t.Helper()
	if r.cmd != nil {
		r.t.Fatal("redistest: Restart while running")
	}
	// The port was just released by a killed process; it is normally free
	// at once on loopback, but retry briefly in case it is not.
	deadline := time.Now().Add(5 * time.Second)
	for {
		cmd := exec.Command(r.bin, r.argv...)
		if err := cmd.Start(); err != nil {
			r.t.Fatalf("start redis-server: %v", err)
		}
		done := make(chan struct{})
		go func() {
			_ = cmd.Wait()
			close(done)
		}()
		err := waitPing(r.Addr, done, 10*time.Second)
		if err == nil {
			r.cmd, r.done = cmd, done
			return
		}
		_ = cmd.Process.Kill()
		<-done
		if time.Now().After(deadline) {
			r.t.Fatalf("redis-server did not restart: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
