package binding_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/condengine/condengine/binding"
)

// A card is usable when it has a name and a version (strings) and either
// a top-level url (then its interfaces are not read) or interfaces each
// with a url and a protocolBinding.
func TestCardProblem_EitherOr(t *testing.T) {
	cases := []struct {
		name, body string
		usable     bool
	}{
		{"top-level url, no interfaces", `{"name":"a","version":"1","url":"https://x/a2a"}`, true},
		{"top-level url, interface lacking url", `{"name":"a","version":"1","url":"https://x","supportedInterfaces":[{"protocolBinding":"JSONRPC"}]}`, true},
		{"top-level url, interfaces of the wrong type", `{"name":"a","version":"1","url":"https://x","supportedInterfaces":"junk"}`, true},
		{"top-level url, entry url a number", `{"name":"a","version":"1","url":"https://x","supportedInterfaces":[{"url":5}]}`, true},
		{"top-level url, empty interfaces", `{"name":"a","version":"1","url":"https://x","supportedInterfaces":[]}`, true},
		{"interfaces complete", `{"name":"a","version":"1","supportedInterfaces":[{"url":"https://x","protocolBinding":"GRPC"}]}`, true},
		{"empty url, interfaces complete", `{"name":"a","version":"1","url":"","supportedInterfaces":[{"url":"https://x","protocolBinding":"GRPC"}]}`, true},
		{"empty url, no interfaces", `{"name":"a","version":"1","url":""}`, false},
		{"no url, empty interfaces", `{"name":"a","version":"1","supportedInterfaces":[]}`, false},
		{"no url, entry without protocolBinding", `{"name":"a","version":"1","supportedInterfaces":[{"url":"https://x"}]}`, false},
		{"no url, entry with empty url", `{"name":"a","version":"1","supportedInterfaces":[{"url":"","protocolBinding":"JSONRPC"}]}`, false},
		{"no url, second entry incomplete", `{"name":"a","version":"1","supportedInterfaces":[{"url":"https://x","protocolBinding":"JSONRPC"},{"url":"https://y"}]}`, false},
		{"no url, interfaces of the wrong type", `{"name":"a","version":"1","supportedInterfaces":"junk"}`, false},
		{"url a number counts as none", `{"name":"a","version":"1","url":7}`, false},
		{"version a number", `{"name":"a","version":1,"url":"https://x"}`, false},
		{"name a number", `{"name":1,"version":"1","url":"https://x"}`, false},
		{"empty version", `{"name":"a","version":"","url":"https://x"}`, false},
		{"null name", `{"name":null,"version":"1","url":"https://x"}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := binding.ParseCard([]byte(tc.body))
			usable := err == nil && c.Problem() == ""
			assert.Equal(t, tc.usable, usable, "err=%v", err)
		})
	}
}
