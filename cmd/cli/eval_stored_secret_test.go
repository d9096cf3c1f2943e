package cli

import (
	"strings"
	"testing"
)

// storedSecrets is a FinOps world whose kept conditions carry text
// someone else wrote into their messages: a deactivated Subscription's
// Active (beside its own target's name, which looks like an address), a
// deleting Offering's Ready, and a PriceBook's Active between
// transitions.
const storedSecrets = `apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: finops, name: book, uid: b1, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec: {currency: EUR, valuationMode: currency, rates: {cpuHour: "0.031"}}
status:
  active: true
  ready: "True"
  conditions:
    - {type: Ready, status: "True", reason: PricebookParsed, observedGeneration: 1, lastTransitionTime: "2026-11-02T00:00:00Z", message: ""}
    - {type: Active, status: "True", reason: Activated, observedGeneration: 1, lastTransitionTime: "2026-11-02T00:00:00Z",
       message: "pushed with token xoxb-123456789012-abcdefghijkl"}
---
apiVersion: finops.stakater.com/v1alpha1
kind: Offering
metadata: {namespace: shop, name: base, uid: o1, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec: {pricing: {}}
status: {ready: "True"}
---
apiVersion: finops.stakater.com/v1alpha1
kind: Offering
metadata: {namespace: shop, name: old, uid: o2, generation: 2, creationTimestamp: "2026-11-01T00:00:00Z",
  deletionTimestamp: "2026-11-29T00:00:00Z", finalizers: [finops.stakater.com/offering-protection]}
spec: {pricing: {}}
status:
  ready: "True"
  conditions:
    - {type: Ready, status: "True", reason: ValidationSucceeded, observedGeneration: 1, lastTransitionTime: "2026-11-02T00:00:00Z",
       message: "checked against postgres://app:s3cret@db.prod.svc:5432/app"}
---
apiVersion: finops.stakater.com/v1alpha1
kind: Subscription
metadata: {namespace: team-a, name: backup, uid: u1, generation: 4, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  offeringRef: {namespace: shop, name: base}
  lifecycle:
    targetRef: {apiVersion: v1, kind: ConfigMap, namespace: team-a, name: "backup-10.0.0.7"}
status:
  ready: "False"
  activatedAt: "2026-11-01T09:00:00Z"
  deactivatedAt: "2026-11-20T12:00:00Z"
  compatibilityRoot: u1
  conditions:
    - {type: Ready, status: "False", reason: ValidationSucceeded, observedGeneration: 3, lastTransitionTime: "2026-11-20T12:00:00Z",
       message: "ended; AccountName=q9acct;AccountKey=c2VjcmV0a2V5"}
    - {type: Active, status: "False", reason: TargetNotFound, observedGeneration: 3, lastTransitionTime: "2026-11-20T12:00:00Z",
       message: "target ConfigMap team-a/backup-10.0.0.7 (v1) was deleted; dial fe80%3A%3A1%25q9zone:5432"}
`

// What eval prints, in every format, writes back none of it, and still
// shows the Subscription's own target as written.
func TestEval_StoredSecretsAreNotPrinted(t *testing.T) {
	for _, format := range []string{"table", "yaml", "json"} {
		t.Run(format, func(t *testing.T) {
			code, out, errs := run(t, storedSecrets, "eval", "-o", format, "-now", fixedNow)
			if code != exitOK {
				t.Fatalf("code %d, stderr %q", code, errs)
			}
			for _, secret := range []string{"xoxb-", "s3cret", "db.prod.svc", "q9acct", "c2VjcmV0a2V5", "q9zone", "fe80"} {
				if strings.Contains(out, secret) || strings.Contains(errs, secret) {
					t.Errorf("eval -o %s prints %q:\n%s", format, secret, out)
				}
			}
			if format != "table" && !strings.Contains(out, "team-a/backup-10.0.0.7 (v1) was deleted") {
				t.Errorf("eval -o %s lost the target's name:\n%s", format, out)
			}
		})
	}
}
