package redact

import (
	"strings"
	"testing"
)

// ruleExamples holds, for every rule of the table, texts it must find
// (the secret part, which must not survive Message) and texts it must
// leave alone (which Message returns unchanged).
var ruleExamples = map[string]struct{ positive, negative []string }{
	"url": {
		positive: []string{"https://user:pass@git.example.com/x", "s3://bucket/key", "postgres://u:p@db/app"},
		negative: []string{"see the Binding's status", "scheme:// alone"},
	},
	"url-percent-encoded": {
		positive: []string{"https%3A%2F%2Fuser%3Apass%40git.example.com%2Fx", "HTTP%3a%2f%2finternal"},
		negative: []string{"100% done", "50%3 of 6"},
	},
	"email": {
		positive: []string{"alice@example.com", "ops+alerts@corp.example.org"},
		negative: []string{"image@sha256", "a @ b"},
	},
	"ipv4": {
		positive: []string{"10.0.0.7", "192.168.1.20:8443", "node-10.0.0.7", "012.0.0.07"},
		negative: []string{"release-1.2.3.4", "v1.2.3.4", "1.2.3", "v0.37.2"},
	},
	"ipv6": {
		positive: []string{"2001:db8::1", "[fe80::1%eth0]:80", "::1"},
		negative: []string{"10:00:00", "std::vector"},
	},
	"host-port": {
		positive: []string{"api.example.com:443", "localhost:8080", "redis-master:6379", "echo:8080"},
		negative: []string{"line:12", "step:3", "2026-11-30T10:00:00Z", "Ready:True", "spec.chat.channel"},
	},
	"host-port-percent-encoded": {
		positive: []string{"db.internal.corp%3A5432", "10.0.0.7%3a8443", "redis-master%3A6379", "localhost%3A80"},
		negative: []string{"spec.x%3Aabc", "line%3A12", "100%3A5", "step%3A3"},
	},
	"ipv4-decimal": {
		positive: []string{"host 167772167", "addr=167772167", "//167772167/x", "dial tcp 4294967295"},
		negative: []string{"generation 167772167 is invalid", "priceMicros 300000000", "host 16777215", "host 4294967296", "host 167772167.5", "host 0967772167"},
	},
	"ipv4-hex-octal": {
		positive: []string{"0x0a.0.0.7", "0300.0250.0.01", "0x7f.0x0.0x0.0x1:80", "host 0x0a000007", "dial tcp 0xC0A80001:8443",
			"addr=01200000007", "//0x0a000007/x"},
		negative: []string{"colour #0a0b0c", "colour 0x0a0b0c", "commit 3f2a9c1 and 0c1d2e3", "version 1.02.003", "exit code 0x80070005",
			"0xdeadbeef", "host 0x00ffffff", "0x0a.0.0.300", "host 012345"},
	},
	"ipv6-percent-encoded": {
		positive: []string{"fe80%3A%3A1", "%5B::1%5D", "%5Bfe80%3A%3A1%5D%3A8443", "2001%3adb8%3a%3a1", "q=%5B2001%3Adb8%3A%3A7%5D&x=1",
			"%5B2001%3Adb8%3A%3A7%5D%3A8443: refused", "fe80%3A%3A1.", "fe80%3A%3A1%25eth0", "%5Bfe80%3A%3A1%25en0%5D%3A8443"},
		negative: []string{"100%3A5", "10%3A00%3A00", "Foo%3A%3ABar", "%5Bx%5D", "%3A%3A", "line%3A12", "a%5B0%5D", "%3A%3A%25eth0", "50%25 done"},
	},
	"auth-scheme": {
		positive: []string{"Bearer abc.def", "Basic dXNlcjpwYXNz"},
		negative: []string{"basic authentication failed", "Forbearer x"},
	},
	"key-value": {
		positive: []string{"password=hunter2", "pw=hunter2", "db_password: s3cr3t", `"client_secret": "abc def"`, "token: hunter",
			"pass=x", "db_pass=x", "sig=abc%2Bdef%3D", "X-Amz-Signature=0a1b", "pаssword=hunter2", "tоken: abc"},
		negative: []string{"token: required; secret: must be set", "password: missing", "tokens issued: 3",
			"bypass=true", "compass=north", "design=x", "sig: required", "pаssword: required", "Grüße=x"},
	},
	"password-phrase": {
		positive: []string{"hunter2x", "correcthorse"},
		negative: []string{"the password is required", "token was revoked", "the answer is 42"},
	},
	"connection-string": {
		positive: []string{"AccountKey=abc123", "AccountName=acct01;", "SharedAccessSignature=sv=2021-06-08&sig=x", "EndpointSuffix=core.windows.net",
			"BlobEndpoint=acct.blob.core.windows.net", "accountname=x"},
		negative: []string{"AccountName is required", "MyAccountName=x", "AccountName=", "AccountName: x", "db.AccountName=x"},
	},
	"slack-token": {
		positive: []string{"xoxb-123456789012-abcdefghijkl", "xoxp-1234-5678-abcdefabcdef", "xapp-1-A0123-456-abcdef0123"},
		negative: []string{"xoxb- is a prefix", "myxoxb-1234567890123"},
	},
	"aws-access-key-id": {
		positive: []string{"AKIAIOSFODNN7EXAMPLE", "ASIAY34FZKBOKMUTVV7A"},
		negative: []string{"AKIA is a prefix", "AKIAIOSFODNN7EXAMPLEX1"},
	},
	"github-token": {
		positive: []string{"ghp_16C7e42F292c6912E7710c838347Ae178B4a", "github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789"},
		negative: []string{"ghp_short", "use a github_pat_ token"},
	},
	"stripe-key": {
		positive: []string{"sk_live_4eC39HqLyjWDarjtT1zdp7dc", "rk_test_abcdefghij12"},
		negative: []string{"sk_live_ keys are secret", "desk_live_schedule"},
	},
	"gitlab-token": {
		positive: []string{"glpat-xxxxxxxxxxxxxxxxxxxx", "glrt-0123456789abcdefghij"},
		negative: []string{"glpat- tokens expire", "glpat-short"},
	},
	"google-api-key": {
		positive: []string{"AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"},
		negative: []string{"AIza alone", "AIzaShort"},
	},
	"huggingface-token": {
		positive: []string{"hf_abcdefghijklmnopqrstuvwxyzABCDEFGH"},
		negative: []string{"hf_token is unset", "hf_short", "hf_hub_download failed"},
	},
	"square-token": {
		positive: []string{"sq0atp-0123456789abcdefghijkl", "sq0csp-ABCDEFGHIJ0123456789abcdefghijklmnopq"},
		negative: []string{"sq0atp- is a prefix", "sq0atp-short"},
	},
	"pem-block": {
		positive: []string{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", "-----BEGIN OPENSSH PRIVATE KEY----- b3Blbn (cut"},
		negative: []string{"----- separator -----", "BEGIN transaction"},
	},
	"long-run": {
		positive: []string{"0123456789abcdef0123456789abcdef", "QWxhZGRpbjpvcGVuIHNlc2FtZQ0123456789abcdEF",
			"Xk9mP2qL7vNw", "dXNlcjpwYXNz", "A1b+C2d/E3f4G5", "Zm9vYmFyYmF6cQ==", "r4PZozCXKuuGNg", "ENV_Xk9mP2qL7vNw"},
		negative: []string{"a-very-long-kubernetes-name-that-is-lower-case-only", "CONSTANT_NAMES_IN_UPPER_CASE_ARE_NOT_SECRETS",
			"ObservedGeneration", "CrashLoopBackOff", "X509Certificate", "IPv4AddressPool", "HTTP2Server",
			"web-7d4b9c6f5-x2k9q", "C0123ABCDEF9", "Xk9mP2qL7vN", "a1b2c3d4e5f6a7b8"},
	},
	"jwt": {
		positive: []string{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"},
		negative: []string{"keyJam.a.b", "eyJ alone"},
	},
}

// rulePositiveContext plants a positive example where each rule expects
// it: the password phrase needs its key word before it.
func rulePositiveContext(name, secret string) string {
	switch name {
	case "password-phrase":
		return "the password is " + secret + " for now"
	case "ipv4-decimal":
		return secret + " (retrying)"
	}
	return "failed: " + secret + " (retrying)"
}

func TestRules_EveryRuleHasExamples(t *testing.T) {
	for _, r := range rules {
		ex, ok := ruleExamples[r.name]
		if !ok || len(ex.positive) == 0 || len(ex.negative) == 0 {
			t.Errorf("rule %q has no positive or no negative example", r.name)
		}
	}
	if len(ruleExamples) != len(rules) {
		t.Errorf("%d example sets for %d rules: one names no rule", len(ruleExamples), len(rules))
	}
}

func TestRules_PositiveExamplesAreFoundByTheirRule(t *testing.T) {
	for _, r := range rules {
		for _, secret := range ruleExamples[r.name].positive {
			msg := normalize(rulePositiveContext(r.name, secret))
			if len(r.find(msg, nil)) == 0 {
				t.Errorf("rule %q finds nothing in %q", r.name, msg)
			}
			out := Message(msg)
			if strings.Contains(out, normalize(secret)) {
				t.Errorf("rule %q: %q survives in %q", r.name, secret, out)
			}
		}
	}
}

func TestRules_NegativeExamplesSurvive(t *testing.T) {
	for _, r := range rules {
		for _, text := range ruleExamples[r.name].negative {
			if got := r.find(normalize(text), nil); len(got) != 0 {
				t.Errorf("rule %q finds %v in %q", r.name, got, text)
			}
			if out := Message(text); out != text {
				t.Errorf("rule %q: %q became %q", r.name, text, out)
			}
		}
	}
}

func TestNormalize_FoldsFullWidthForms(t *testing.T) {
	if got := Message("dial １０．０．０．７:８４４３ failed"); got != "dial [address] failed" {
		t.Fatalf("got %q", got)
	}
}
