package offering_test

import (
	"fmt"
	"regexp"
	"testing"

	"pgregory.net/rapid"

	"github.com/condengine/condengine/offering"
)

// offeringNameInMessage finds the namespace/name pairs of the generated
// snapshots' namespaces (Offerings in a and b, dependents also in c, the
// PriceBook in finops) in a message.
var offeringNameInMessage = regexp.MustCompile(`\b(?:a|b|c|finops)/[a-z0-9][a-z0-9.-]*`)

// Every message that quotes other objects (a requirement entry, a loop
// path, the dependents of a deleting Offering, a PriceBook's rate) names
// only what the reader's namespace holds or wrote down: the Offering
// itself, its own requirement entries, an object of its namespace, or an
// Offering that an Offering of its namespace requires. A dependent in
// another namespace, an Offering that only another namespace requires
// and the PriceBook are never named.
func TestProperty_MessagesNameOnlyWhatTheNamespaceWrote(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawSnapshot(t)
		for k := rapid.IntRange(0, 4).Draw(t, "foreignDeps"); k > 0 && len(s.Offerings) > 0; k-- {
			o := s.Offerings[rapid.IntRange(0, len(s.Offerings)-1).Draw(t, "of")]
			s.Dependents = append(s.Dependents, offering.Dependent{
				Namespace: rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "depNs"),
				Name:      fmt.Sprintf("d%d", k), OfferingRef: o.Key(), Ready: rapid.Bool().Draw(t, "depReady")})
		}
		written := map[string]map[string]bool{} // namespace -> names it holds or wrote
		note := func(ns, name string) {
			if written[ns] == nil {
				written[ns] = map[string]bool{}
			}
			written[ns][name] = true
		}
		for i := range s.Offerings {
			o := &s.Offerings[i]
			note(o.Namespace, o.Key().String())
			if c := o.Spec.Compatibility; c != nil {
				for _, r := range c.RequiredOfferings {
					note(o.Namespace, r.String())
				}
			}
		}
		for _, d := range s.Dependents {
			note(d.Namespace, d.Namespace+"/"+d.Name)
		}
		outs := inInputOrder(s.Offerings, evaluate(s))
		for i := range s.Offerings {
			o := &s.Offerings[i]
			for _, c := range outs[i].Status.Conditions {
				for _, n := range offeringNameInMessage.FindAllString(c.Message, -1) {
					if !written[o.Namespace][n] {
						t.Fatalf("%s %s names %s, which namespace %s neither holds nor wrote: %q",
							o.Key(), c.Type, n, o.Namespace, c.Message)
					}
				}
			}
		}
	})
}
