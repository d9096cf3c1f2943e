package finops_test

// Fuzzing: FuzzDecode checks that every refusal is a DocumentError
// counted from 1 and that decoding and evaluation are deterministic. Each
// execution decodes one small stream and evaluates it once; inputs the fuzzer grows past 64 KiB are
// skipped rather than decoded, so a long mutation cannot slow it down.
//
//	go test ./finops -run '^$' -fuzz '^FuzzDecode$' -fuzztime 30s -fuzzminimizetime 5s
//
// -fuzzminimizetime bounds how long a failing input is shrunk.

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/manifest"
)

// FuzzDecode feeds arbitrary manifests through Decode and, when they
// decode, through one evaluation.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("apiVersion: finops.stakater.com/v1alpha1\nkind: PriceBook\nmetadata: {name: p}\nspec: {valuationMode: currency, rates: {cpuHour: \"0.1\"}}\n"))
	f.Add([]byte(`{"kind":"List","items":[{"apiVersion":"finops.stakater.com/v1alpha1","kind":"Offering","metadata":{"name":"o","namespace":"n"},"spec":{"pricing":{"resourcePricing":[{"name":"cpuHour","margins":{"factorMilli":9223372036854775807}}]},"compatibility":{"requiredOfferings":[{"name":"o","namespace":"n"}]}}}]}`))
	f.Add([]byte("kind: ConfigMap\nmetadata: {name: finops-operator-custom-pricing-configs}\ndata: {default.json: '{}'}\n---\n---\n"))
	f.Add([]byte("apiVersion: finops.stakater.com/v1alpha1\nkind: CostJob\nmetadata: {name: j}\nspec: {schedul: x}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			t.Skip()
		}
		s, err := finops.Decode(data)
		s2, err2 := finops.Decode(data)
		if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("Decode is not deterministic: %v / %v", err, err2)
		}
		if err != nil {
			des := manifest.Errors(err)
			if len(des) == 0 {
				t.Fatalf("error %v holds no DocumentError", err)
			}
			for _, de := range des {
				if de.Index < 1 && !errors.Is(de, manifest.ErrLimit) {
					t.Fatalf("document counted from %d: %v", de.Index, de)
				}
			}
			return
		}
		if _, err := finops.Evaluate(s); !errors.Is(err, conditions.ErrZeroNow) {
			t.Fatalf("a decoded snapshot has no now, yet Evaluate says %v", err)
		}
		s.Now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
		r, err := finops.Evaluate(s)
		if err != nil {
			t.Fatal(err)
		}
		r2, err := finops.Evaluate(s)
		if err != nil {
			t.Fatal(err)
		}
		s2.Now = s.Now
		if d := cmp.Diff(s, s2); d != "" {
			t.Fatalf("Decode is not deterministic:\n%s", d)
		}
		if d := cmp.Diff(r, r2); d != "" {
			t.Fatalf("Evaluate is not deterministic:\n%s", d)
		}
		_ = finops.Apply(s, r)
	})
}
