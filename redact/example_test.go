package redact_test

import (
	"fmt"

	"github.com/condengine/condengine/redact"
)

func ExampleMessage() {
	raw := "probe failed:\n GET https://agent.team-b.internal:8443/card\tfrom 10.0.0.7 with Bearer abc.def (team-b/secret-bot)"
	fmt.Println(redact.Message(raw))

	// Field paths, names, versions and times survive untouched.
	fmt.Println(redact.Message("spec.chat.channel: AgentBackend team-a/echo v0.37.2 at 2026-11-30T10:00:00Z"))

	// Fit cuts own text on a rune boundary, the ellipsis counted.
	fmt.Println(redact.Fit("generation 2 is invalid, serving generation 1", 20))
	// Output:
	// probe failed: GET [url] from [address] with Bearer [secret] (team-b/secret-bot)
	// spec.chat.channel: AgentBackend team-a/echo v0.37.2 at 2026-11-30T10:00:00Z
	// generation 2 is i…
}

func ExampleCheck() {
	fmt.Println(redact.Check("spec.chat.channel: \"x y\" contains white space", 0))
	fmt.Println(redact.Check("two\nlines", 0))
	// Output:
	// <nil>
	// message is not one line: character U+000A at offset 3
}
