package article_test

import (
	"testing"

	"github.com/condengine/condengine/internal/article"
)

func TestA(t *testing.T) {
	for noun, want := range map[string]string{
		// The module's kinds.
		"Binding":        "a Binding",
		"AgentBackend":   "an AgentBackend",
		"ChatConnection": "a ChatConnection",
		"PriceBook":      "a PriceBook",
		"Offering":       "an Offering",
		"Subscription":   "a Subscription",
		"CostJob":        "a CostJob",
		"FinOpsProvider": "a FinOpsProvider",
		// A vowel read as "you" or "won", a silent h.
		"Ingress":    "an Ingress",
		"Event":      "an Event",
		"UnitTest":   "a UnitTest",
		"User":       "a User",
		"Umbrella":   "an Umbrella",
		"OneShot":    "a OneShot",
		"HourlyRate": "an HourlyRate",
		"Host":       "a Host",
		// Initialisms are read letter by letter.
		"HTTPRoute":   "an HTTPRoute",
		"MCPServer":   "an MCPServer",
		"SQLInstance": "an SQLInstance",
		"URLMap":      "a URLMap",
		"CRD":         "a CRD",
		"IAMPolicy":   "an IAMPolicy",
		// Not letters, or nothing.
		"3rdParty": "a 3rdParty",
		"":         "",
		"\xff":     "a \xff",
		"Élan":     "an Élan",
	} {
		if got := article.A(noun); got != want {
			t.Errorf("A(%q) = %q, want %q", noun, got, want)
		}
	}
}
