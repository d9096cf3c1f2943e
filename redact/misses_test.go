package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Azure storage and Service Bus connection strings: the key, the shared
// access signature (its fields after '&' included) and the account name
// and endpoint suffix that make up the host are hidden; the protocol and
// the field names stay.
func TestMessage_ConnectionStrings(t *testing.T) {
	runCases(t, []msgCase{
		{"StorageShortKey", "DefaultEndpointsProtocol=https;AccountName=foo;AccountKey=abc123XYZ+/def==;EndpointSuffix=core.windows.net",
			"DefaultEndpointsProtocol=https;AccountName=[address];AccountKey=[secret];EndpointSuffix=[address]"},
		{"StorageLongKey", "conn DefaultEndpointsProtocol=https;AccountName=acct01;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;EndpointSuffix=core.windows.net failed",
			"conn DefaultEndpointsProtocol=https;AccountName=[address];AccountKey=[secret];EndpointSuffix=[address] failed"},
		{"SharedAccessSignatureWhole", "QueueEndpoint=acct.queue.core.windows.net;SharedAccessSignature=sv=2021-06-08&ss=q&srt=sco&sp=rl&se=2026-01-01T00:00:00Z&sig=abcDEF123%3D",
			"QueueEndpoint=[address];SharedAccessSignature=[secret]"},
		{"ServiceBusKey", `"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=abcdef123XYZ="`,
			`"Endpoint=[url]"`},
		{"ServiceBusKeyAlone", "SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=abcdef123XYZ=",
			"SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=[secret]"},
		{"JSONAccountKey", `{"accountKey": "abc"}`, `{"accountKey": "[secret]"}`},
		{"CaseInsensitive", "accountname=foo;accountkey=bar", "accountname=[address];accountkey=[secret]"},
		{"ProseStays", "set AccountName and AccountKey in the Secret", "set AccountName and AccountKey in the Secret"},
		{"InParentheses", "(AccountName=foo, SharedAccessSignature=sv=1&sig=x)", "(AccountName=[address], SharedAccessSignature=[secret])"},
		{"AfterPlaceholder", "(accountkey=[secret])", "(accountkey=[secret])"},
	})
}

// A zone after a percent-encoded IPv6 address is hidden with it, its '%'
// written %25 (as a URL carries it) or bare.
func TestMessage_EncodedIPv6Zone(t *testing.T) {
	runCases(t, []msgCase{
		{"EncodedColonsZone", "host fe80%3A%3A1%25eth0 down", "host [address] down"},
		{"EncodedBracketsZonePort", "q=%5Bfe80%3A%3A1%25eth0%5D%3A8443&x=1", "q=[address]&x=1"},
		{"PlainColonsEncodedBrackets", "%5Bfe80::1%25en0%5D", "[address]"},
		{"BareZoneMark", "fe80%3A%3A1%eth0: refused", "[address]: refused"},
		{"NotAnAddress", "50%25 of Foo%3A%3ABar%25x", "50%25 of Foo%3A%3ABar%25x"},
	})
}

// A base64 token of 12 to 39 characters is hidden when it reads as random
// (both cases, and at least one CamelCase segment for every two
// characters); identifiers, CamelCase words and Kubernetes names stay.
func TestMessage_ShortBase64Tokens(t *testing.T) {
	runCases(t, []msgCase{
		{"TwelveAlnum", "key Xk9mP2qL7vNw rejected", "key [secret] rejected"},
		{"TwelveBase64", "auth dXNlcjpwYXNz failed", "auth [secret] failed"},
		{"WithPlusSlash", "sig A1b+C2d/E3f4G5 bad", "sig [secret] bad"},
		{"Padded", "got Zm9vYmFyYmF6cQ== back", "got [secret] back"},
		{"Quoted", `secret "r4PZozCXKuuGNg"`, `secret "[secret]"`},
		{"CamelCaseWords", "ObservedGeneration CrashLoopBackOff ReconcileError", "ObservedGeneration CrashLoopBackOff ReconcileError"},
		{"Acronyms", "IPv4AddressPool X509Certificate HTTP2Server OAuth2TokenSource", "IPv4AddressPool X509Certificate HTTP2Server OAuth2TokenSource"},
		{"KubernetesNames", "web-7d4b9c6f5-x2k9q a1b2c3d4e5f6a7b8 v1alpha1", "web-7d4b9c6f5-x2k9q a1b2c3d4e5f6a7b8 v1alpha1"},
		{"UpperAndDigits", "channel C0123ABCDEF9 request 4F3A2B1C9D8E", "channel C0123ABCDEF9 request 4F3A2B1C9D8E"},
		{"Eleven", "code Xk9mP2qL7vN", "code Xk9mP2qL7vN"},
		{"AfterSlash", "team-a/Xk9mP2qL7vNw", "team-[secret]"},
		{"Underscored", "ENV_Xk9mP2qL7vNw_value", "ENV_[secret]_value"},
	})
}

// Random base64 tokens of 12 to 39 characters are hidden more than
// nine times in ten, by their shape alone (the doc's figure). The draw is
// seeded, so the figure is the same on every run.
func TestShortToken_RecallOnRandomTokens(t *testing.T) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	rng := rand.New(rand.NewPCG(37, 12))
	for _, n := range []int{minTokenRun, 16, 24, minBase64Run - 1} {
		const draws = 10000
		hidden := 0
		b := make([]byte, n)
		for range draws {
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			if !strings.Contains(Message("key "+string(b)+" rejected"), string(b)) {
				hidden++
			}
		}
		t.Logf("%d characters: %d of %d hidden", n, hidden, draws)
		if hidden*10 < draws*9 {
			t.Errorf("%d characters: %d of %d hidden, fewer than nine in ten", n, hidden, draws)
		}
	}
}

// The quick checks findConnectionStrings makes first (the last letter,
// the length) turn down no field name.
func TestConnFields_WithinLengthBounds(t *testing.T) {
	for _, f := range connFields {
		if len(f.name) < minConnField || len(f.name) > maxConnField {
			t.Errorf("%s is outside [%d, %d]", f.name, minConnField, maxConnField)
		}
		if !connFieldEnd(f.name[len(f.name)-1]) {
			t.Errorf("%s ends in a letter connFieldEnd turns down", f.name)
		}
		if k, ok := connField(strings.ToUpper(f.name)); !ok || k != f.k {
			t.Errorf("%s is not found", f.name)
		}
	}
}
