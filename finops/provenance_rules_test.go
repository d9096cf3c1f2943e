package finops_test

import (
	"strings"
	"testing"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/scenario"
)

// explainedBy finds the provenance of kind ns/name's condition typ in a
// finops scenario explained.
func explainedBy(t *testing.T, file, kind, ns, name, typ string) conditions.Provenance {
	t.Helper()
	f, err := scenario.Load("../conformance/scenarios/finops/" + file + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := finopstest.Snapshot(f)
	if err != nil {
		t.Fatal(err)
	}
	r, err := finops.Explain(s)
	if err != nil {
		t.Fatal(err)
	}
	var provs []conditions.Provenance
	switch kind {
	case "PriceBook":
		for _, b := range r.PriceBooks.Books {
			if b.Namespace == ns && b.Name == name {
				provs = b.Provenance
			}
		}
	case "Offering":
		for _, o := range r.Offerings.Offerings {
			if o.Namespace == ns && o.Name == name {
				provs = o.Provenance
			}
		}
	default:
		for _, o := range r.Subscriptions.Subscriptions {
			if o.Namespace == ns && o.Name == name {
				provs = o.Provenance
			}
		}
	}
	for _, p := range provs {
		if p.Type == typ {
			return p
		}
	}
	t.Fatalf("%s %s/%s has no %s", kind, ns, name, typ)
	return conditions.Provenance{}
}

// Each FinOps kind's evidence, named, on scenarios of the corpus.
func TestExplain_EvidencePerRule(t *testing.T) {
	for _, tc := range []struct {
		file, kind, ns, name, typ, rule string
		facts                           []string
	}{
		{"pricebook-parse-failed-first-field-in-order", "PriceBook", "finops", "messy", "Ready", "pricebook/ready/parse-failed",
			[]string{"PriceBook finops/messy: spec.rates.spotCPUHour=1.2345678"}},
		{"offering-deleting-dependent-subscriptions", "Offering", "shop", "base", "Deleting", "offering/deleting/dependent-subscriptions",
			[]string{"Subscription other-tenant/hidden-customer: spec.offeringRef=shop/base", "Subscription shop/acme: status.ready=True"}},
		{"offering-pricebook-parse-failed", "Offering", "shop", "gpu", "PricingResolved", "offering/checks/pricebook-parse-failed",
			[]string{"PriceBook finops/standard: status.active=true"}},
		{"subscription-lifecycle-block-overrides-offering-orphan", "Subscription", "team-a", "child", "Active", "subscription/active/parent-deactivated",
			[]string{"Subscription team-a/child: policy=Deactivate (spec.lifecycle.onParentDeactivate of the Subscription)"}},
		{"subscription-parent-deactivated-default-policy", "Subscription", "team-a", "child", "Active", "subscription/active/parent-deactivated",
			[]string{"Subscription team-a/child: policy=Deactivate (default)", "Subscription team-a/root: status.deactivatedAt=2026-11-20T12:00:00Z"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p := explainedBy(t, tc.file, tc.kind, tc.ns, tc.name, tc.typ)
			if p.Rule != tc.rule {
				t.Fatalf("rule %q, want %q", p.Rule, tc.rule)
			}
			var flat strings.Builder
			for _, ev := range p.Evidence {
				for _, f := range ev.Facts {
					flat.WriteString(ev.Object.String() + ": " + f.Field + "=" + f.Value + "\n")
				}
			}
			for _, want := range tc.facts {
				if !strings.Contains(flat.String(), want+"\n") {
					t.Errorf("evidence lacks %q:\n%s", want, flat.String())
				}
			}
		})
	}
}
