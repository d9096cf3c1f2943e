package offering_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/offering"
	ot "github.com/condengine/condengine/offering/offeringtest"
	"github.com/condengine/condengine/pricebook"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
)

// naiveLoop is the admission webhook's walk, run from one Offering:
// depth first in spec order, stopping when it re-enters the current path.
// It is quadratic over a snapshot; the engine must agree with it.
func naiveLoop(offs []finopsv1.Offering, start int) []int {
	idx := map[finopsv1.Reference]int{}
	for i := range offs {
		idx[offs[i].Key()] = i
	}
	onPath, done := map[int]bool{}, map[int]bool{}
	var path []int
	var walk func(v int) []int
	walk = func(v int) []int {
		onPath[v] = true
		path = append(path, v)
		if c := offs[v].Spec.Compatibility; c != nil {
			for _, r := range c.RequiredOfferings {
				w, ok := idx[r]
				if !ok || r.Namespace == "" || r.Name == "" {
					continue
				}
				if onPath[w] {
					return append(slices.Clone(path), w)
				}
				if done[w] {
					continue
				}
				if p := walk(w); p != nil {
					return p
				}
			}
		}
		onPath[v] = false
		path = path[:len(path)-1]
		done[v] = true
		return nil
	}
	return walk(start)
}

func oneNamespace(offs []finopsv1.Offering) []finopsv1.Offering {
	for i := range offs {
		offs[i].Namespace = "a"
		if c := offs[i].Spec.Compatibility; c != nil {
			for j := range c.RequiredOfferings {
				if c.RequiredOfferings[j].Namespace != "" {
					c.RequiredOfferings[j].Namespace = "a"
				}
			}
		}
	}
	return offs
}

func TestProperty_LoopWalkMatchesWebhookWalk(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		offs := oneNamespace(ot.Graph(10).Draw(t, "offerings"))
		for i := range offs {
			offs[i].DeletionTimestamp = nil
		}
		r := eval(offs...)
		for i := range offs {
			c := conditions.Find(r.Offerings[i].Status.Conditions, offering.TypeReady)
			p := naiveLoop(offs, i)
			if (c.Reason == string(offering.ReasonCircularDependencyDetected)) != (p != nil) {
				t.Fatalf("%s: reason %s, webhook walk %v", offs[i].Name, c.Reason, p)
			}
			if p == nil {
				continue
			}
			var names []string
			for _, v := range p {
				names = append(names, "a/"+offs[v].Name)
			}
			if want := "requirement loop: " + strings.Join(names, " -> "); c.Message != want {
				t.Fatalf("%s: message %q, want %q", offs[i].Name, c.Message, want)
			}
		}
	})
}

func statusJSON(t *rapid.T, s finopsv1.OfferingStatus) string {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func drawSnapshot(t *rapid.T) offering.Snapshot {
	offs := ot.Graph(12).Draw(t, "offerings")
	var deps []offering.Dependent
	for k := rapid.IntRange(0, 4).Draw(t, "subs"); k > 0 && len(offs) > 0; k-- {
		o := offs[rapid.IntRange(0, len(offs)-1).Draw(t, "target")]
		deps = append(deps, offering.Dependent{Namespace: o.Namespace, Name: "s", OfferingRef: o.Key(), Ready: rapid.Bool().Draw(t, "ready")})
	}
	var books []finopsv1.PriceBook
	if rapid.Bool().Draw(t, "book") {
		b := pb.New("finops", "book", pb.Incumbent(), pb.Rate(pricebook.CPUHour, pb.AnyRate().Draw(t, "cpu")),
			pb.Rate(pricebook.GPUHour, pb.GoodRate().Draw(t, "gpu")))
		if rapid.IntRange(0, 3).Draw(t, "pct") == 0 {
			pb.Percent()(&b)
		}
		books = append(books, b)
	}
	return offering.Snapshot{Now: now, Offerings: offs, PriceBooks: books, Dependents: deps}
}

// applyOfferings writes an evaluation back as the host would.
func applyOfferings(s offering.Snapshot, r offering.Result) offering.Snapshot {
	next := s
	next.Offerings = slices.Clone(s.Offerings)
	outs := inInputOrder(s.Offerings, r)
	for i := range next.Offerings {
		if outs[i].Write {
			next.Offerings[i].Status = outs[i].Status
		}
		if outs[i].Finalizer == conditions.FinalizerAdd {
			next.Offerings[i].Finalizers = append(slices.Clone(next.Offerings[i].Finalizers), finopsv1.OfferingFinalizer)
		}
	}
	return next
}

func TestProperty_OrderIndependence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawSnapshot(t)
		p := s
		p.Offerings = rapid.Permutation(s.Offerings).Draw(t, "perm")
		p.Dependents = rapid.Permutation(s.Dependents).Draw(t, "permDeps")
		a, b := evaluate(s), evaluate(p)
		as, bs := inInputOrder(s.Offerings, a), inInputOrder(p.Offerings, b)
		want := map[finopsv1.Reference]string{}
		for i := range s.Offerings {
			want[s.Offerings[i].Key()] = statusJSON(t, as[i].Status)
		}
		for i := range p.Offerings {
			if got := statusJSON(t, bs[i].Status); got != want[p.Offerings[i].Key()] {
				t.Fatalf("%s: %s != %s", p.Offerings[i].Key(), got, want[p.Offerings[i].Key()])
			}
		}
	})
}

func TestProperty_AgreeValidateAndHoldFinalizer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawSnapshot(t)
		outs := inInputOrder(s.Offerings, evaluate(s))
		for i := range s.Offerings {
			o, out := &s.Offerings[i], outs[i]
			if errs := offering.Vocabulary.Validate(out.Status.Conditions, o.Generation, field.NewPath("status", "conditions")); len(errs) > 0 {
				t.Fatalf("%s: %v", o.Key(), errs.ToAggregate())
			}
			ready := conditions.Find(out.Status.Conditions, offering.TypeReady)
			pr := conditions.Find(out.Status.Conditions, offering.TypePricingResolved)
			if (ready == nil) != (pr == nil) {
				t.Fatalf("%s: Ready and PricingResolved not written together", o.Key())
			}
			if ready != nil && (ready.Status != pr.Status || ready.Message != pr.Message ||
				ready.Status == "False" && ready.Reason != pr.Reason) {
				t.Fatalf("%s: Ready %v and PricingResolved %v disagree", o.Key(), *ready, *pr)
			}
			if !o.IsDeleting() && (ready == nil || ready.Status != out.Status.Ready) {
				t.Fatalf("%s: status.ready %q does not mirror Ready", o.Key(), out.Status.Ready)
			}
			if !o.IsDeleting() && (ready.Status == "True") != (out.Status.ResolvedPricing != nil) && o.Status.ResolvedPricing == nil {
				t.Fatalf("%s: ready %s but resolvedPricing %v", o.Key(), ready.Status, out.Status.ResolvedPricing)
			}
			if o.IsDeleting() && out.Finalizer == conditions.FinalizerRemove && readyDependent(s, o.Key()) {
				t.Fatalf("%s: finalizer dropped while a ready dependent exists", o.Key())
			}
		}
	})
}

func readyDependent(s offering.Snapshot, k finopsv1.Reference) bool {
	for _, d := range s.Dependents {
		if d.Ready && d.OfferingRef == k {
			return true
		}
	}
	for i := range s.Offerings {
		o := &s.Offerings[i]
		if o.IsReady() && o.Key() != k && o.Spec.Compatibility != nil && slices.Contains(o.Spec.Compatibility.RequiredOfferings, k) {
			return true
		}
	}
	return false
}

func TestProperty_ResolvedPricingNeverChangesAndSettles(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawSnapshot(t)
		resolved := map[finopsv1.Reference]string{}
		rounds := len(s.Offerings) + 3
		settled := false
		for round := 0; round < rounds; round++ {
			// The book may change under the Offerings between rounds.
			if len(s.PriceBooks) > 0 && rapid.Bool().Draw(t, "edit") {
				s.PriceBooks = []finopsv1.PriceBook{pb.New("finops", "book", pb.Incumbent(),
					pb.Rate(pricebook.CPUHour, pb.GoodRate().Draw(t, "cpu")), pb.Rate(pricebook.GPUHour, pb.GoodRate().Draw(t, "gpu")))}
			}
			s.Now = now.Add(time.Duration(round) * time.Minute)
			r := evaluate(s)
			outs := inInputOrder(s.Offerings, r)
			changed := false
			for i := range s.Offerings {
				out := outs[i]
				changed = changed || out.Write || out.Finalizer == conditions.FinalizerAdd
				if out.Status.ResolvedPricing == nil {
					continue
				}
				got := statusJSON(t, finopsv1.OfferingStatus{ResolvedPricing: out.Status.ResolvedPricing})
				if was, ok := resolved[s.Offerings[i].Key()]; ok && was != got {
					t.Fatalf("%s: resolvedPricing moved from %s to %s", s.Offerings[i].Key(), was, got)
				}
				resolved[s.Offerings[i].Key()] = got
			}
			if !changed {
				settled = true
				break
			}
			s = applyOfferings(s, r)
		}
		if !settled {
			t.Fatalf("no fixed point after %d rounds", rounds)
		}
	})
}

func FuzzEvaluate(f *testing.F) {
	f.Add([]byte{0, 0})
	f.Add([]byte{0, 1, 1, 2, 2, 0, 3, 3})
	f.Add([]byte{5, 200, 7, 7, 1, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		// Each byte pair (from, to) adds a requirement; the high bits pick
		// odd shapes: a missing namespace, an unknown target, readiness,
		// deletion and a metered price.
		const n = 8
		offs := make([]finopsv1.Offering, n)
		for i := range offs {
			offs[i] = ot.New("ns", string(rune('a'+i)))
		}
		for k := 0; k+1 < len(data) && k < 512; k += 2 {
			from, to := int(data[k])%n, data[k+1]
			ref := ot.Ref("ns", string(rune('a'+int(to)%(n+2))))
			switch {
			case data[k]&0x80 != 0:
				ref.Namespace = ""
			case data[k]&0x40 != 0:
				ot.Ready()(&offs[from])
			case data[k]&0x20 != 0:
				ot.Deleting()(&offs[from])
			case data[k]&0x10 != 0:
				ot.Meter(finopsv1.MeterCPUHour, ot.Factor(int64(to)*1000))(&offs[from])
			}
			ot.Requires(ref)(&offs[from])
		}
		books := []finopsv1.PriceBook{pb.New("f", "b", pb.Incumbent(), pb.Rate(pricebook.CPUHour, "9223372036854"))}
		r := evaluate(offering.Snapshot{Now: now, Offerings: offs, PriceBooks: books})
		for i := range offs {
			if errs := offering.Vocabulary.Validate(r.Offerings[i].Status.Conditions, 1, field.NewPath("c")); len(errs) > 0 {
				t.Fatalf("%s: %v", offs[i].Name, errs.ToAggregate())
			}
		}
	})
}
