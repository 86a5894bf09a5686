// Package kv is a service's own wrapper of a valkey client: it prefixes
// every key with the deployment's namespace.
package kv

import (
	"strings"

	"github.com/valkey-io/valkey-go"
)

type Client struct {
	inner  valkey.Client
	prefix string
}

func New(inner valkey.Client, prefix string) *Client { return &Client{inner: inner, prefix: prefix} }

// Key joins parts under the namespace.
func (c *Client) Key(parts ...string) string {
	return c.prefix + strings.Join(parts, ":")
}

func (c *Client) Inner() valkey.Client { return c.inner }
