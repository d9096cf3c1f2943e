package redact

import (
	"strings"
	"testing"
)

// The labelled corpus: texts from elsewhere (probe output, job errors,
// API answers) with the part that must be hidden, and ordinary operator
// text that must come back unchanged. The figures it gives are in the
// package doc; this test fails when they change, so the doc cannot drift.

type secretCase struct{ text, secret string }

var corpusSecrets = []secretCase{
	{"slack: invalid_auth for xoxb-123456789012-abcdefghijkl", "xoxb-123456789012-abcdefghijkl"},
	{"posting with xoxp-2222-3333-4444-abcdefabcdef001 failed", "xoxp-2222-3333-4444-abcdefabcdef001"},
	{"socket mode token xapp-1-A012BCD-4567890-abcdef1234 rejected", "xapp-1-A012BCD-4567890-abcdef1234"},
	{"InvalidClientTokenId: AKIAIOSFODNN7EXAMPLE is not valid", "AKIAIOSFODNN7EXAMPLE"},
	{"ExpiredToken for ASIAY34FZKBOKMUTVV7A", "ASIAY34FZKBOKMUTVV7A"},
	{"git clone failed (token ghp_16C7e42F292c6912E7710c838347Ae178B4a)", "ghp_16C7e42F292c6912E7710c838347Ae178B4a"},
	{"bad credentials: github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789", "github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789"},
	{"stripe: No such key sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"},
	{"gitlab 401 with glpat-Xy12Ab34Cd56Ef78Gh90", "glpat-Xy12Ab34Cd56Ef78Gh90"},
	{"maps: key AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY over quota", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"},
	{"loaded -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7\n-----END RSA PRIVATE KEY----- from env", "MIIEowIBAAKCAQEAx7"},
	{"redirect to https%3A%2F%2Fuser%3Apass%40git.internal%2Frepo refused", "user%3Apass"},
	{"dial tcp １０．０．０．７:８４４３: connection refused", "10.0.0.7"},
	{"the password is hunter2 for the admin user", "hunter2"},
	{"connect pw=Sup3rS3cret failed", "Sup3rS3cret"},
	{"dial tcp redis-master:6379: i/o timeout", "redis-master:6379"},
	{"GET https://api.example.com/v1?key=abc returned 500", "api.example.com"},
	{"dial tcp 10.96.0.12:443: connect: connection refused", "10.96.0.12"},
	{"dial tcp [2001:db8::7]:8443: no route", "2001:db8::7"},
	{"postgres://app:s3cret@db.prod.svc:5432/app refused", "s3cret"},
	{"Authorization: Bearer abc123.def456 rejected", "abc123.def456"},
	{"Basic dXNlcjpwYXNzd29yZA== not accepted", "dXNlcjpwYXNzd29yZA=="},
	{`{"client_secret": "p@ss w0rd"}`, "p@ss w0rd"},
	{"db_password: Tr0ub4dor&3", "Tr0ub4dor&3"},
	{"api_key=0a1b2c3d4e5f", "0a1b2c3d4e5f"},
	{"session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U expired", "eyJhbGciOiJIUzI1NiJ9"},
	{"checksum 9e107d9d372bb6826bd81d3542a419d6 mismatch", "9e107d9d372bb6826bd81d3542a419d6"},
	{"notify ops@corp.example.com failed", "ops@corp.example.com"},
	{"mysql dsn root:toor@tcp(mysql:3306)/x", "toor"},
	{"listen tcp :9090: bind: address already in use", ":9090"},
	{"upstream localhost:8080 closed", "localhost:8080"},
	{"token=required", "required"},
	{"dial db.internal.corp%3A5432 failed", "db.internal.corp%3A5432"},
	{"GET http://167772167/health refused", "167772167"},
	{"dial tcp 167772167:80: i/o timeout", "167772167"},
	{"login with pаssword=hunter2 refused", "hunter2"},
	{"ftp login pass=letmein failed", "letmein"},
	{"hub: 401 for hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH"},
	{"square: sq0atp-0123456789abcdefghijkl expired", "sq0atp-0123456789abcdefghijkl"},
	{"blob GET ?sv=2020-08-04&sig=Ab%2Bcd%3D&se=2026 forbidden", "Ab%2Bcd%3D"},
	{"storage DefaultEndpointsProtocol=https;AccountName=acct01;AccountKey=c2VjcmV0a2V5;EndpointSuffix=core.windows.net refused", "c2VjcmV0a2V5"},
	{"storage DefaultEndpointsProtocol=https;AccountName=acct01;AccountKey=c2VjcmV0a2V5 refused", "acct01"},
	{"queue SharedAccessSignature=sv=2021-06-08&ss=q&sp=rl&sig=x expired", "ss=q&sp=rl"},
	{"dial fe80%3A%3A1%25eth0 refused", "eth0"},
	{"password reset with r4PZozCXKuuGNg failed", "r4PZozCXKuuGNg"},
}

var corpusProse = []string{
	"token: required; secret: must be set",
	"release-1.2.3.4 is not supported; upgrade to v1.3.0",
	"spec.chat.channel: required",
	"Binding team-a/chat: channel C0123 is held by team-a/older",
	"AgentBackend echo not found in namespace team-a",
	"ChatConnection slack: tokenSecretRef.key token is missing from the Secret",
	"password: missing",
	"the password is required",
	"token was revoked",
	"line:12 col:4 unexpected end of input",
	"step:3 of 5 failed, retry:2",
	"observedGeneration 4 is older than generation 5",
	"2026-11-30T10:00:00Z is before the creation time",
	"Ready=True since 10:00",
	"PriceBook finops/standard: rates.cpuHour must be a decimal string",
	"Offering shop/base: subscriptionFee.priceMicros must not be negative",
	"Subscription shop/web: lifecycle.targetRef names Deployment web, which does not exist",
	"CostJob nightly: the last run took 37s",
	"basic authentication is not supported by this backend",
	"image nginx:1.27 pulled",
	"chart v0.37.2 installed",
	"100% of the quota is used",
	"std::vector out of range",
	"waiting for 3 of 5 replicas",
	"the secret is rotated every 90 days",
	"apiVersion agentkourier.dev/v1alpha1 is served",
	"FinOpsProvider opencost: collection disabled",
	"a-very-long-kubernetes-name-that-is-lower-case-only-and-not-secret",
	"CONSTANT_NAMES_IN_UPPER_CASE_ARE_NOT_SECRETS_EITHER",
	"metadata.name: CostJob ns/p is listed again",
	"exit:137 (OOMKilled)",
	"ghp_ tokens are not accepted here",
	"generation 167772167 is invalid, serving generation 167772166",
	"priceMicros 300000000 is more than the cap",
	"bypass=true skips the gate",
	"hf_hub_download failed for the model card",
	"design=compact; sig: required",
	"Grüße, 世界: done",
	"field spec.x%3Aabc is not decoded",
	"the pаssword field is required",
	"ObservedGeneration and LastTransitionTime are set",
	"CrashLoopBackOff: back-off restarting failed container",
	"pod web-7d4b9c6f5-x2k9q is ready",
	"set AccountName and AccountKey in the Secret",
	"IPv4AddressPool uses X509Certificate over HTTP2Server",
	"request 4F3A2B1C9D8E to channel C0123ABCDEF9",
}

// Documented in doc.go: recall and false-positive rate on this corpus.
const (
	corpusHidden        = 45 // of len(corpusSecrets)
	corpusFalsePositive = 0  // of len(corpusProse)
)

func TestCorpus_RecallAndFalsePositiveRate(t *testing.T) {
	hidden := 0
	for _, c := range corpusSecrets {
		out := Message(c.text)
		if strings.Contains(out, normalize(c.secret)) || strings.Contains(out, c.secret) {
			t.Logf("survives: %q in %q", c.secret, out)
			continue
		}
		hidden++
	}
	changed := 0
	for _, p := range corpusProse {
		if out := Message(p); out != p {
			t.Logf("prose changed: %q -> %q", p, out)
			changed++
		}
	}
	t.Logf("recall %d/%d, false positives %d/%d", hidden, len(corpusSecrets), changed, len(corpusProse))
	if hidden != corpusHidden || changed != corpusFalsePositive {
		t.Errorf("recall %d/%d and false positives %d/%d; doc.go says %d and %d: update both",
			hidden, len(corpusSecrets), changed, len(corpusProse), corpusHidden, corpusFalsePositive)
	}
}
