package finops_test

import (
	"errors"
	"testing"
	"time"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
)

// FuzzDecode feeds arbitrary manifests through Decode and, when they
// decode, through one evaluation: either may refuse, neither may panic.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("apiVersion: finops.stakater.com/v1alpha1\nkind: PriceBook\nmetadata: {name: p}\nspec: {valuationMode: currency, rates: {cpuHour: \"0.1\"}}\n"))
	f.Add([]byte(`{"kind":"List","items":[{"apiVersion":"finops.stakater.com/v1alpha1","kind":"Offering","metadata":{"name":"o","namespace":"n"},"spec":{"pricing":{"resourcePricing":[{"name":"cpuHour","margins":{"factorMilli":9223372036854775807}}]},"compatibility":{"requiredOfferings":[{"name":"o","namespace":"n"}]}}}]}`))
	f.Add([]byte("kind: ConfigMap\nmetadata: {name: finops-operator-custom-pricing-configs}\ndata: {default.json: '{}'}\n---\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := finops.Decode(data)
		if err != nil {
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
		_ = finops.Apply(s, r)
	})
}
