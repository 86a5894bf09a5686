// Code generated from ../fixrueidis by go generate; DO NOT EDIT.
// sha256 of the rest: a89efa5b14bfc516d7e78998d008d14e3ddb21e6e958e011b7912404d8bb0088

package fixvalkey

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/valkey-io/valkey-go"
)

// Client returns c as a lock.Client. Clients made of the same valkey-go
// client compare equal.
// A nil c gives nil, which package lock refuses with ErrNilClient.
func Client(c valkey.Client) lock.Client {
	v := reflect.ValueOf(c)
	if c == nil || v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	id := ""
	if v.Kind() == reflect.Pointer {
		id = "valkey-go/" + strconv.FormatUint(uint64(v.Pointer()), 16)
	}
	return client{c: c, id: id}
}

type client struct {
	c  valkey.Client
	id string
}

// build makes a valkey-go command; its builder panics on keys of two slots
// in a Cluster client and on a SUBSCRIBE, which are errors here.
func build(b valkey.Builder, cmd lock.Command) (c valkey.Completed, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("fixvalkey: %v: %v", cmd.Head, p)
		}
	}()
	// Keys, so that a Cluster client routes by their slot.
	return b.Arbitrary(cmd.Head...).Keys(cmd.Keys...).Args(cmd.Args...).Build(), nil
}

func (c client) Do(ctx context.Context, cmd lock.Command) (any, error) {
	vc, err := build(c.c.B(), cmd)
	if err != nil {
		return nil, err
	}
	return reply(c.c.Do(ctx, vc))
}

// Pipeline runs cmds on a dedicated connection: DoMulti would split a
// Cluster pipeline by slot and send the keyless WAIT to any node, and a
// standalone client with ConnLifetime re-sends the rest of a pipeline on
// a new connection when the old one expires. A dedicated Cluster
// connection goes to the master of the slot of its commands' keys.
func (c client) Pipeline(ctx context.Context, cmds ...lock.Command) ([]any, error) {
	if len(cmds) == 0 {
		return nil, nil
	}
	if len(cmds[0].Keys) == 0 {
		return nil, errors.New("fixvalkey: a pipeline needs a key in its first command")
	}
	cluster := c.c.Mode() == valkey.ClientModeCluster
	multi := make([]valkey.Completed, len(cmds))
	for i, cmd := range cmds {
		vc, err := build(c.c.B(), cmd)
		if err != nil {
			return nil, err
		}
		if cluster && i > 0 && len(cmd.Keys) > 0 && vc.Slot() != multi[0].Slot() {
			// A dedicated Cluster connection panics on a second slot.
			return nil, fmt.Errorf("fixvalkey: pipeline: %s is in another slot than %s", cmd.Keys[0], cmds[0].Keys[0])
		}
		multi[i] = vc
	}
	var results []valkey.ValkeyResult
	_ = c.c.Dedicated(func(dc valkey.DedicatedClient) error {
		results = dc.DoMulti(ctx, multi...)
		return nil
	})
	out := make([]any, len(results))
	for i, r := range results {
		v, err := reply(r)
		if err != nil {
			if _, ok := err.(*lock.ServerError); !ok {
				return nil, err
			}
			v = err
		}
		out[i] = v
	}
	return out, nil
}

// reply reads a result as lock.Client.Do returns it.
func reply(r valkey.ValkeyResult) (any, error) {
	m, err := r.ToMessage()
	if err != nil {
		if valkey.IsValkeyNil(err) {
			return nil, nil
		}
		if _, ok := valkey.IsValkeyErr(err); ok {
			return nil, &lock.ServerError{Err: err}
		}
		return nil, err
	}
	return value(&m)
}

// value converts a RESP3 reply to the RESP2 shapes lock.Client returns.
func value(m *valkey.ValkeyMessage) (any, error) {
	switch {
	case m.IsNil():
		return nil, nil
	case m.IsInt64():
		return m.AsInt64()
	case m.IsBool():
		// Lua's true is 1 and its false a null in RESP2; RESP3 makes them
		// booleans.
		if b, _ := m.AsBool(); b {
			return int64(1), nil
		}
		return nil, nil
	case m.IsArray():
		elems, err := m.ToArray()
		if err != nil {
			return nil, err
		}
		a := make([]any, len(elems))
		for i := range elems {
			if err := elems[i].Error(); err != nil && !valkey.IsValkeyNil(err) {
				a[i] = &lock.ServerError{Err: err}
				continue
			}
			if a[i], err = value(&elems[i]); err != nil {
				return nil, err
			}
		}
		return a, nil
	case m.IsMap():
		return nil, errors.New("fixvalkey: map reply")
	}
	// Simple, bulk and verbatim strings; doubles and big numbers, which
	// RESP2 sends as bulk strings.
	return m.ToString()
}

func (c client) Subscribe(ctx context.Context, sharded bool, channels ...string) (lock.Subscription, error) {
	dc, _ := c.c.Dedicate()
	s := &subscription{dc: dc, sharded: sharded, out: make(chan lock.Message), kick: make(chan struct{}, 1), quit: make(chan struct{})}
	// The hooks run on the connection's reader, which must not block (it
	// also reads the replies to SUBSCRIBE): they queue for forward.
	errs := dc.SetPubSubHooks(valkey.PubSubHooks{
		OnMessage: func(m valkey.PubSubMessage) {
			s.push(lock.Message{Channel: m.Channel, Payload: m.Message})
		},
		OnSubscription: func(m valkey.PubSubSubscription) {
			if m.Kind == "subscribe" || m.Kind == "ssubscribe" {
				s.push(lock.Message{Channel: m.Channel, Subscribed: true})
			}
		},
	})
	go func() {
		// Closed when the hooks will not be called again: the connection
		// ended.
		for range errs {
		}
		s.end()
	}()
	go s.forward()
	if err := s.Subscribe(ctx, channels...); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (s *subscription) Subscribe(ctx context.Context, channels ...string) error {
	if len(channels) == 0 {
		return nil
	}
	b := s.dc.B()
	if s.sharded {
		return s.dc.Do(ctx, b.Ssubscribe().Channel(channels...).Build()).Error()
	}
	return s.dc.Do(ctx, b.Subscribe().Channel(channels...).Build()).Error()
}

func (s *subscription) Unsubscribe(ctx context.Context, channels ...string) error {
	if len(channels) == 0 {
		return nil
	}
	b := s.dc.B()
	if s.sharded {
		return s.dc.Do(ctx, b.Sunsubscribe().Channel(channels...).Build()).Error()
	}
	return s.dc.Do(ctx, b.Unsubscribe().Channel(channels...).Build()).Error()
}

// Close closes the connection rather than returning it to the pool.
func (s *subscription) Close() error {
	s.once.Do(func() {
		s.dc.Close()
		close(s.quit)
	})
	return nil
}

// ServerID is one id per valkey-go client: valkey-go does not say which node
// serves a key, so a Cluster of mixed versions shares one entry of the
// library's feature cache, which then re-learns (a round trip, never a
// wrong result). A client freed and another allocated at its address
// inherit its entry the same way.
func (c client) ServerID(context.Context, string) string { return c.id }

// Info: valkey-go ends every command at its context's deadline (a
// connection it reads alone gets the deadline as its socket deadline,
// queued commands stop waiting at ctx.Done), so Deadlines is true.
func (c client) Info() lock.Info {
	return lock.Info{Cluster: c.c.Mode() == valkey.ClientModeCluster, Deadlines: true}
}
