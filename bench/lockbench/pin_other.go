//go:build !linux

package main

import "errors"

type pinning struct{}

func newPinning(pids ...int) (*pinning, error) {
	return nil, errors.New("pinning needs Linux; run with -pin1=false")
}

func (p *pinning) cpu() int     { return -1 }
func (p *pinning) pin() error   { return nil }
func (p *pinning) unpin() error { return nil }
