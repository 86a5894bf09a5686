// Package redistest starts real Redis servers and clusters for tests, and an
// in-process miniredis whose clock follows real time.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// Server is a redis-server process owned by a test.
type Server struct {
	Addr string
	cmd  *exec.Cmd
}

// Require returns the path of the named binary. A missing binary skips the
// test locally and fails it when the CI environment variable is set.
func Require(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is required in CI: %v", name, err)
	}
	t.Skipf("%s not found: %v", name, err)
	return ""
}

// Start runs redis-server on a free loopback port, without persistence, with
// extra command-line arguments, and stops it when the test ends.
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	bin := Require(t, "redis-server")
	dir := t.TempDir()
	var lastErr error
	for range 5 {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		argv := append([]string{
			"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
			"--save", "", "--appendonly", "no", "--dir", dir,
		}, args...)
		cmd := exec.Command(bin, argv...)
		cmd.Stdout, cmd.Stderr = nil, nil
		if err := cmd.Start(); err != nil {
			t.Fatalf("start redis-server: %v", err)
		}
		s := &Server{Addr: addr, cmd: cmd}
		exited := make(chan struct{})
		go func() {
			_ = cmd.Wait()
			close(exited)
		}()
		if lastErr = waitPing(addr, exited, 10*time.Second); lastErr == nil {
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				<-exited
			})
			return s
		}
		_ = cmd.Process.Kill()
		<-exited
	}
	t.Fatalf("redis-server did not start: %v", lastErr)
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func waitPing(addr string, exited <-chan struct{}, timeout time.Duration) error {
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialTimeout: time.Second})
	defer c.Close()
	deadline := time.Now().Add(timeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("redis-server on %s exited: %v", addr, err)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server on %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Client returns a client for the server, closed when the test ends.
func (s *Server) Client(t testing.TB, opts *redis.Options) *redis.Client {
	t.Helper()
	if opts == nil {
		opts = &redis.Options{}
	}
	opts.Addr = s.Addr
	c := redis.NewClient(opts)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// StartCluster runs a Redis Cluster of n masters without replicas on
// loopback ports and waits until every node reports cluster_state:ok.
func StartCluster(t testing.TB, n int) []string {
	t.Helper()
	addrs := make([]string, n)
	for i := range addrs {
		conf := filepath.Join(t.TempDir(), "nodes.conf")
		addrs[i] = Start(t, "--cluster-enabled", "yes", "--cluster-config-file", conf,
			"--cluster-node-timeout", "5000").Addr
	}
	createCluster(t, addrs)
	return addrs
}

// createCluster joins the servers at addrs into a Cluster of masters and
// waits until every node reports cluster_state:ok.
func createCluster(t testing.TB, addrs []string) {
	t.Helper()
	cli := Require(t, "redis-cli")
	args := append([]string{"--cluster", "create"}, addrs...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	WaitClusterOK(t, addrs, 20*time.Second)
}

// WaitClusterOK waits until every node at addrs reports cluster_state:ok.
func WaitClusterOK(t testing.TB, addrs []string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for _, addr := range addrs {
		c := redis.NewClient(&redis.Options{Addr: addr})
		for {
			info, err := c.ClusterInfo(context.Background()).Result()
			if err == nil && strings.Contains(info, "cluster_state:ok") {
				break
			}
			if time.Now().After(deadline) {
				c.Close()
				t.Fatalf("cluster node %s not ok: %v\n%s", addr, err, info)
			}
			time.Sleep(50 * time.Millisecond)
		}
		c.Close()
	}
}

// Miniredis starts an in-process miniredis whose key expiry follows the real
// clock: miniredis only expires keys when told time has passed, so a
// goroutine forwards it every few milliseconds until the test ends. A key
// set between two steps loses the part of the step before it was set, so
// keys can expire up to one step (more when the goroutine is starved) early;
// ClockLag says by how much at most so far.
func Miniredis(t testing.TB) *miniredis.Miniredis {
	t.Helper()
	m := miniredis.RunT(t)
	stop := RealClock(m)
	t.Cleanup(stop)
	return m
}

// lags holds, for each miniredis RealClock drives, its longest step so far.
var lags sync.Map // *miniredis.Miniredis -> *atomic.Int64

// ClockLag is the longest step RealClock has taken on m so far, how early a
// key set on m may expire; zero for a server RealClock does not drive.
func ClockLag(m *miniredis.Miniredis) time.Duration {
	if v, ok := lags.Load(m); ok {
		return time.Duration(v.(*atomic.Int64).Load())
	}
	return 0
}

// RealClock advances m's clock with real time until the returned function
// is called.
func RealClock(m *miniredis.Miniredis) (stop func()) {
	done := make(chan struct{})
	exited := make(chan struct{})
	lag := new(atomic.Int64)
	lags.Store(m, lag)
	go func() {
		defer close(exited)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		last := time.Now()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				now := time.Now()
				m.SetTime(now)
				step := now.Sub(last)
				m.FastForward(step)
				if int64(step) > lag.Load() {
					lag.Store(int64(step))
				}
				last = now
			}
		}
	}()
	return func() {
		close(done)
		<-exited
		lags.Delete(m)
	}
}
