package main

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// pinning moves every thread of the given processes onto one CPU and back.
// A single goroutine's round trip over loopback otherwise pays a wake-up
// of the other CPU, whose cost (tens of microseconds on a virtual machine)
// depends on where the scheduler happens to put the two processes and
// changes from one second to the next: on a machine of few CPUs it swamps
// what the implementations themselves cost. On one CPU a round trip costs
// the client's and the server's work and a local switch, and that is what
// the single-goroutine runs compare.
type pinning struct {
	pids []int
	all  unix.CPUSet
	one  unix.CPUSet
}

func newPinning(pids ...int) (*pinning, error) {
	p := &pinning{pids: pids}
	if err := unix.SchedGetaffinity(0, &p.all); err != nil {
		return nil, fmt.Errorf("pinning: %w", err)
	}
	for cpu := range 1024 {
		if p.all.IsSet(cpu) {
			p.one.Set(cpu)
			break
		}
	}
	return p, nil
}

// cpu names the CPU the pinned runs use.
func (p *pinning) cpu() int {
	for cpu := range 1024 {
		if p.one.IsSet(cpu) {
			return cpu
		}
	}
	return -1
}

func (p *pinning) pin() error   { return p.set(&p.one) }
func (p *pinning) unpin() error { return p.set(&p.all) }

// set applies set to every thread of the processes; threads started
// while pinned inherit the mask, and a later set reaches them too.
func (p *pinning) set(set *unix.CPUSet) error {
	for _, pid := range p.pids {
		tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
		if err != nil {
			return fmt.Errorf("pinning: %w", err)
		}
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil {
				continue
			}
			// A thread that exited in between has nothing to pin.
			if err := unix.SchedSetaffinity(tid, set); err != nil && err != unix.ESRCH {
				return fmt.Errorf("pinning thread %d of %d: %w", tid, pid, err)
			}
		}
	}
	return nil
}
