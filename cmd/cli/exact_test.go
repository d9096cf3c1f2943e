package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/condengine/condengine/internal/exacttest"
)

// bigStream holds a Binding, an Offering and a Subscription whose
// generations and price are at exacttest's two values, which a float64
// cannot carry: every output of every command prints them exactly.
const bigStream = `apiVersion: agentkourier.dev/v1alpha1
kind: ChatConnection
metadata: {namespace: team-a, name: slack, uid: u-conn, generation: 1, creationTimestamp: "2026-11-30T08:00:00Z"}
spec: {platform: slack, tokenSecretRef: {key: token, name: slack-bot-token}}
---
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: team-a, name: echo, uid: u-echo, generation: ` + exacttest.Above53 + `, creationTimestamp: "2026-11-30T08:00:00Z"}
spec: {url: "http://echo.team-a.svc"}
---
apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: team-a, name: chat, uid: u-chat, generation: ` + exacttest.Int64Max + `, creationTimestamp: "2026-11-30T09:00:00Z"}
spec:
  agent: {backendRef: {name: echo}}
  chat: {connectionRef: {name: slack}, channel: C1}
---
apiVersion: finops.stakater.com/v1alpha1
kind: Offering
metadata: {namespace: shop, name: big, uid: o-big, generation: ` + exacttest.Above53 + `, creationTimestamp: "2026-10-01T05:00:00Z"}
spec:
  pricing:
    subscriptionFee: {priceMicros: ` + exacttest.Above53 + `, period: "1", tickAlignment: MonthBoundary}
---
apiVersion: finops.stakater.com/v1alpha1
kind: Subscription
metadata: {namespace: team-a, name: max, uid: u-max, generation: ` + exacttest.Int64Max + `, creationTimestamp: "2026-10-01T05:00:00Z"}
spec:
  offeringRef: {name: big, namespace: shop}
`

func TestEval_PrintsExactIntegers(t *testing.T) {
	for format, wants := range map[string][]string{
		"json":  {`"generation": ` + exacttest.Int64Max, `"generation": ` + exacttest.Above53, `"priceMicros": ` + exacttest.Above53, `"observedGeneration": ` + exacttest.Int64Max},
		"yaml":  {"generation: " + exacttest.Int64Max, "generation: " + exacttest.Above53, "priceMicros: " + exacttest.Above53, "observedGeneration: " + exacttest.Int64Max},
		"table": {exacttest.Above53, exacttest.Int64Max},
	} {
		t.Run(format, func(t *testing.T) {
			code, out, errs := run(t, bigStream, "eval", "-o", format, "-now", fixedNow)
			if code != exitOK {
				t.Fatalf("code %d, stderr %q", code, errs)
			}
			exacttest.NotRounded(t, out)
			containsAll(t, out, wants...)
		})
	}
}

func TestExplain_PrintsExactIntegers(t *testing.T) {
	for format, wants := range map[string][]string{
		"json": {`"generation": ` + exacttest.Int64Max, `"generation": ` + exacttest.Above53, `"observedGeneration": ` + exacttest.Int64Max},
		"tree": {"generation " + exacttest.Int64Max, "generation " + exacttest.Above53, "observedGeneration " + exacttest.Int64Max},
	} {
		t.Run(format, func(t *testing.T) {
			code, out, errs := run(t, bigStream, "explain", "-f", "-", "-o", format, "-now", fixedNow)
			if code != exitOK {
				t.Fatalf("code %d, stderr %q", code, errs)
			}
			exacttest.NotRounded(t, out)
			containsAll(t, out, wants...)
		})
	}
}

// check prints a value one off from the exact one as a mismatch, both
// sides exact.
func TestCheck_PrintsExactIntegers(t *testing.T) {
	path := bigScenario(t)
	for format, wants := range map[string][]string{
		"text": {"want 9007199254740992, got " + exacttest.Above53},
		"json": {`"want": 9007199254740992`, `"got": ` + exacttest.Above53},
	} {
		t.Run(format, func(t *testing.T) {
			_, out, errs := run(t, "", "check", "-o", format, path)
			containsAll(t, out+errs, wants...)
			if strings.Contains(out, "-9223372036854775808") || strings.Contains(out, "e+18") {
				t.Errorf("a float64's rounding in:\n%s", out)
			}
		})
	}
}

// conform reports an implementation that answers one off from the exact
// value with both values exact.
func TestConform_PrintsExactIntegers(t *testing.T) {
	impl := asCommand(t, "reference --system finops") + " | sed -u s/" + exacttest.Above53 + "/9007199254740992/g"
	code, out, errs := run(t, "", "conform", "--replay", bigScenario(t), "--exec", impl)
	if code == exitOK {
		t.Fatalf("an answer one off agreed:\n%s%s", out, errs)
	}
	containsAll(t, out+errs, exacttest.Above53, "9007199254740992")
	if strings.Contains(out+errs, "-9223372036854775808") || strings.Contains(out+errs, "e+15") {
		t.Errorf("a float64's rounding in:\n%s%s", out, errs)
	}
}

// bigScenario writes the FinOps objects of bigStream as a scenario file
// whose expectations are each one off from what the engine computes.
func bigScenario(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "big.yaml")
	objects := strings.SplitN(bigStream, "---\n", 4)[3]
	var b strings.Builder
	b.WriteString("name: exact numbers\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nobjects:\n")
	for _, doc := range strings.Split(objects, "---\n") {
		for i, l := range strings.Split(strings.TrimRight(doc, "\n"), "\n") {
			if i == 0 {
				b.WriteString("- " + l + "\n")
			} else {
				b.WriteString("  " + l + "\n")
			}
		}
	}
	b.WriteString("expect:\n- kind: Offering\n  namespace: shop\n  name: big\n" +
		"  status: {resolvedPricing: {subscriptionFee: {priceMicros: 9007199254740992}}}\n" +
		"- kind: Subscription\n  namespace: team-a\n  name: max\n" +
		"  status: {observedGeneration: 9223372036854775806}\n")
	writeFile(t, path, b.String())
	return path
}

// reference answers a request line with the exact integers it was sent.
func TestReference_PrintsExactIntegers(t *testing.T) {
	req := `{"id":1,"name":"n","system":"finops","now":"2026-11-30T10:00:00Z","objects":[` +
		`{"apiVersion":"finops.stakater.com/v1alpha1","kind":"Offering","metadata":{"namespace":"shop","name":"big","uid":"o-big","generation":` + exacttest.Above53 +
		`},"spec":{"pricing":{"subscriptionFee":{"priceMicros":` + exacttest.Above53 + `,"period":"1","tickAlignment":"MonthBoundary"}}}},` +
		`{"apiVersion":"finops.stakater.com/v1alpha1","kind":"Subscription","metadata":{"namespace":"team-a","name":"max","uid":"u-max","generation":` + exacttest.Int64Max +
		`},"spec":{"offeringRef":{"name":"big","namespace":"shop"}}}]}` + "\n"
	code, out, errs := run(t, req, "reference", "--system", "finops")
	if code != exitOK {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	exacttest.NotRounded(t, out)
	containsAll(t, out, `"observedGeneration":`+exacttest.Above53, `"priceMicros":`+exacttest.Above53, `"observedGeneration":`+exacttest.Int64Max)
}
