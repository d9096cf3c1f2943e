package offering

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/billing"
	"github.com/condengine/condengine/conditions"
)

// This file decides a live Offering's Ready and PricingResolved, and is
// the one place their rules and reasons are declared: adding a check is
// a Reason constant, a rule in readyRules (with an Example input that
// makes it fire) and the code below that returns its verdict, then
// `go generate ./...` for the docs and the rule's corpus scenario.

// Reason is the reason of an Offering's condition.
type Reason string

// Reasons of Ready and PricingResolved. One check decides both
// conditions, so they share every False reason; only the True reason
// differs.
const (
	// ReasonValidationSucceeded goes with Ready, True.
	ReasonValidationSucceeded Reason = conditions.ReasonValidationSucceeded
	// ReasonPricingResolved goes with PricingResolved, True.
	ReasonPricingResolved Reason = "PricingResolved"
	// ReasonCircularDependencyDetected goes with Ready and
	// PricingResolved, False.
	ReasonCircularDependencyDetected Reason = "CircularDependencyDetected"
	// ReasonRequiredOfferingNotFound goes with Ready and PricingResolved,
	// False.
	ReasonRequiredOfferingNotFound Reason = "RequiredOfferingNotFound"
	// ReasonRequiredOfferingNotReady goes with Ready and PricingResolved,
	// False.
	ReasonRequiredOfferingNotReady Reason = "RequiredOfferingNotReady"
	// ReasonValidationError goes with Ready, PricingResolved and
	// Deleting, False: a read the decision needs failed.
	ReasonValidationError Reason = conditions.ReasonValidationError
	// ReasonNoActivePricebook goes with Ready and PricingResolved, False.
	ReasonNoActivePricebook Reason = "NoActivePricebook"
	// ReasonPricebookParseFailed goes with Ready and PricingResolved,
	// False.
	ReasonPricebookParseFailed Reason = "PricebookParseFailed"
	// ReasonInvalidSubscriptionFee goes with Ready and PricingResolved,
	// False, and is terminal: spec.pricing.subscriptionFee.period counts
	// no unit, so the fee can never be priced.
	ReasonInvalidSubscriptionFee Reason = "InvalidSubscriptionFee"
)

// write is one (status, reason) a rule writes, with its text.
func write(st metav1.ConditionStatus, r Reason, meaning, action string) conditions.Reason {
	return conditions.Reason{Status: st, Reason: string(r), Meaning: meaning, Action: action}
}

// The True writes, one per type: the one place Ready and PricingResolved
// differ. byType gives each type only its own.
var (
	writeValidated = write(metav1.ConditionTrue, ReasonValidationSucceeded,
		"Every requirement resolves to a ready Offering and the pricing is published.", "None.")
	writePriced = write(metav1.ConditionTrue, ReasonPricingResolved,
		"status.resolvedPricing holds the published prices, kept from then on.", "None.")
)

// The rules of Ready and PricingResolved, in the order the checks are
// tried: the first that fails decides both. Each is checked again on the
// next reconcile; only a zero fee period is terminal, since the spec that
// holds it is immutable.
const (
	ruleCircular = iota
	ruleRequiredMissing
	ruleRequiredUnready
	ruleReadFailed
	ruleInvalidFee
	ruleNoActiveBook
	ruleBookParseFailed
	rulePassed
)

var readyRules = [...]conditions.Rule{
	ruleCircular:        failing("offering/checks/circular-dependency", "following requiredOfferings from this Offering runs into a loop", ReasonCircularDependencyDetected, "Following requiredOfferings from here runs into a loop; the message shows the walk.", "Break the loop by replacing an Offering in it (the spec cannot be edited)."),
	ruleRequiredMissing: failing("offering/checks/required-offering-not-found", "a requiredOfferings entry lacks a name or namespace, or names no Offering in the snapshot", ReasonRequiredOfferingNotFound, "A compatibility.requiredOfferings entry names no Offering; the message quotes the entry.", "Create that Offering or fix the entry; its namespace must be written out."),
	ruleRequiredUnready: failing("offering/checks/required-offering-not-ready", "a required Offering's status.ready is not True", ReasonRequiredOfferingNotReady, "A required Offering exists but its status.ready is not True.", "Repair the required Offering; this one follows on a later retry."),
	ruleReadFailed:      failing("offering/checks/read-failed", "reading a required Offering or the active PriceBook failed", ReasonValidationError, "A read needed for the checks failed; the host retries with a growing delay.", "Read the message; it usually clears by itself."),
	ruleInvalidFee: checkRule("offering/checks/invalid-subscription-fee", "spec.pricing.subscriptionFee.period has its alignment's form but counts no unit (0h, 000s, \"0\"), so the fee prices nothing; published pricing is withdrawn",
		conditions.Reason{Status: metav1.ConditionFalse, Reason: string(ReasonInvalidSubscriptionFee), Terminal: true,
			Meaning: "The subscription fee's period is zero; no Subscription can activate on this Offering and nothing is priced.",
			Action:  "Replace the Offering with a period of at least one unit (the spec cannot be edited)."}).WithExample(`
		objects:
		  - apiVersion: finops.stakater.com/v1alpha1
		    kind: Offering
		    metadata: {namespace: shop, name: free-forever, uid: u-free-forever, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
		    spec:
		      pricing:
		        subscriptionFee: {priceMicros: 40000000, period: 0h, tickAlignment: ActivatedAt}
		`),
	ruleNoActiveBook:    failing("offering/checks/no-active-pricebook", "metered prices are declared and no PriceBook with status.active is a currency book", ReasonNoActivePricebook, "Metered prices are declared but no active currency PriceBook exists to price them.", "Create a currency PriceBook or annotate one "+finopsv1.ActiveAnnotation+"=\"true\"."),
	ruleBookParseFailed: failing("offering/checks/pricebook-parse-failed", "a meter's rate on the active PriceBook, or that rate after the margin, is unusable", ReasonPricebookParseFailed, "A meter's rate on the active PriceBook, or that rate after the margin, is not a usable amount.", "Correct the rate named in the message (the PriceBook's Ready says more), or the margin."),
	rulePassed: checkRule("offering/checks/passed", "every requirement is a ready Offering and the pricing is published (or was published before and is kept)",
		writeValidated, writePriced),
}

// failing is a rule of the checks that writes False with reason r.
func failing(id, sentence string, r Reason, meaning, action string) conditions.Rule {
	return checkRule(id, sentence, write(metav1.ConditionFalse, r, meaning, action))
}

// checkRule is a rule of the checks, which decide Ready and
// PricingResolved together.
func checkRule(id, sentence string, writes ...conditions.Reason) conditions.Rule {
	return conditions.Rule{ID: id, Kind: finopsv1.KindOffering,
		Types: []string{TypeReady, TypePricingResolved}, Sentence: sentence, Writes: writes}
}

// byType is the rule table as the vocabulary reads it: a rule deciding
// both Ready and PricingResolved once per type, without the other
// type's True write, so neither type lists the other's True reason.
func byType(rules []conditions.Rule) []conditions.Rule {
	own := map[string]conditions.Reason{TypeReady: writeValidated, TypePricingResolved: writePriced}
	var out []conditions.Rule
	for _, r := range rules {
		if len(r.Types) < 2 {
			out = append(out, r)
			continue
		}
		for _, t := range r.Types {
			one := r
			one.Types, one.Writes = []string{t}, nil
			for _, w := range r.Writes {
				if o, ok := own[otherType(t)]; !ok || w != o {
					one.Writes = append(one.Writes, w)
				}
			}
			out = append(out, one)
		}
	}
	return out
}

// otherType is the type decided together with t.
func otherType(t string) string {
	if t == TypeReady {
		return TypePricingResolved
	}
	return TypeReady
}

// readiness decides Ready and PricingResolved of a live Offering and
// publishes its pricing.
func (e *evaluator) readiness(i int32, rec *conditions.Recorder) Outcome {
	o := &e.s.Offerings[i]
	v, pricing := e.check(i, rec)
	prv := v
	if v.Status == metav1.ConditionTrue {
		prv = v.Rule.Verdict(1, "", o.Generation)
	}
	rec.Decided(TypeReady, "", v)
	rec.Decided(TypePricingResolved, "", prv)
	out, m := e.write(o, []metav1.Condition{v.Condition(TypeReady), prv.Condition(TypePricingResolved)})
	if m.Stale {
		return out
	}
	out.Status.Ready = v.Status
	out.Status.ResolvedPricing = o.Status.ResolvedPricing
	switch {
	case v.Rule == &readyRules[ruleInvalidFee]:
		out.Status.ResolvedPricing = nil // nothing can be priced on a zero period
	case o.Status.ResolvedPricing == nil && pricing != nil:
		out.Status.ResolvedPricing = pricing
	}
	out.Decide(m, out.Status.Ready != o.Status.Ready || out.Status.ResolvedPricing != o.Status.ResolvedPricing)
	if !slices.Contains(o.Finalizers, finopsv1.OfferingFinalizer) {
		out.Finalizer = conditions.FinalizerAdd
	}
	// A terminal verdict is not tried again: the spec that causes it is
	// immutable.
	out.Retry = v.Status != metav1.ConditionTrue && v.Rule != &readyRules[ruleInvalidFee]
	return out
}

// check runs the checks in rule order; the first that fails decides
// Ready (PricingResolved follows it). Each requirement is looked up once.
// With a recorder the walk goes on past the deciding entry, so the
// evidence lists every requirement and the pricing source.
func (e *evaluator) check(i int32, rec *conditions.Recorder) (conditions.Verdict, *finopsv1.ResolvedPricing) {
	o := &e.s.Offerings[i]
	if rec.On() {
		read(rec, ref(o))
	}
	var v conditions.Verdict
	fail := func(rule int, msg string) {
		v = readyRules[rule].Verdict(0, conditions.FitMessage(msg), o.Generation)
		if rec.On() {
			read(rec, ref(o), conditions.F("finding", msg))
		}
	}
	if e.reach[i] {
		fail(ruleCircular, e.loops.loopMessage(e.s.Offerings, i))
	}
	for k, r := range requirements(o) {
		if v.Rule != nil && !rec.On() {
			break
		}
		failed := e.fails.get(finopsv1.KindOffering, r.Namespace, r.Name)
		j, found := e.idx[r]
		if v.Rule == nil {
			switch {
			case r.Name == "":
				fail(ruleRequiredMissing, fmt.Sprintf("requiredOfferings[%d] has no name", k))
			case r.Namespace == "":
				fail(ruleRequiredMissing, fmt.Sprintf("required offering %q has no namespace (a reference is never defaulted)", r.Name))
			case failed:
				fail(ruleReadFailed, "cannot read required offering "+r.String())
			case !found:
				fail(ruleRequiredMissing, "required offering "+r.String()+" not found")
			case !e.s.Offerings[j].IsReady():
				fail(ruleRequiredUnready, "required offering "+r.String()+" is not ready")
			}
		}
		if rec.On() {
			switch {
			case failed:
				read(rec, conditions.ObjectRef{}, conditions.F("failure", finopsv1.KindOffering+" "+r.String()))
			case !found:
				read(rec, ref(o), conditions.F("spec.compatibility.requiredOfferings["+strconv.Itoa(k)+"]", r.String()+" (not found)"))
			default:
				req := &e.s.Offerings[j]
				read(rec, ref(req), conditions.F("status.ready", string(req.Status.Ready)))
			}
		}
	}
	if rec.On() {
		e.readPricing(o, rec)
	}
	if v.Rule != nil {
		return v, nil
	}
	// A zero fee period outranks the pricing kept from before: the
	// Offering can never be priced, so it is not ready from this pass on.
	if fee := o.Spec.Pricing.SubscriptionFee; fee != nil && billing.ZeroPeriod(billing.Alignment(fee.TickAlignment), fee.Period) {
		fail(ruleInvalidFee, fmt.Sprintf("spec.pricing.subscriptionFee.period %s is zero for %s alignment: a fee needs a period of at least one unit",
			strconv.Quote(fee.Period), fee.TickAlignment))
		return v, nil
	}
	rule, msg, pricing := e.price(o)
	if rule != rulePassed {
		fail(rule, msg)
		return v, nil
	}
	return readyRules[rulePassed].Verdict(0, "", o.Generation), pricing
}

// read records facts for both conditions the checks decide.
func read(rec *conditions.Recorder, obj conditions.ObjectRef, facts ...conditions.Fact) {
	rec.Read(TypeReady, obj, facts...)
	rec.Read(TypePricingResolved, obj, facts...)
}

// readPricing records where the pricing comes from: the pricing already
// published, or the active book.
func (e *evaluator) readPricing(o *finopsv1.Offering, rec *conditions.Recorder) {
	switch {
	case o.Status.ResolvedPricing != nil:
		read(rec, ref(o), conditions.FTime("status.resolvedPricing.resolvedAt", o.Status.ResolvedPricing.ResolvedAt.Time))
	case len(o.Spec.Pricing.ResourcePricing) > 0 && e.book >= 0:
		b := &e.s.PriceBooks[e.book]
		read(rec, conditions.ObjectRef{Kind: finopsv1.KindPriceBook, Namespace: b.Namespace, Name: b.Name, UID: b.UID, Generation: b.Generation},
			conditions.F("status.active", "true"), conditions.F("spec.valuationMode", string(b.Spec.ValuationMode)))
	case len(o.Spec.Pricing.ResourcePricing) > 0:
		read(rec, conditions.ObjectRef{}, conditions.F("activePriceBook", "none has status.active"))
	}
}

// price publishes the pricing, or keeps what was published before:
// resolved pricing never changes once set, whatever the books do. It
// returns rulePassed with the pricing, or the rule that failed and its
// message.
func (e *evaluator) price(o *finopsv1.Offering) (rule int, msg string, p *finopsv1.ResolvedPricing) {
	if o.Status.ResolvedPricing != nil {
		return rulePassed, "", o.Status.ResolvedPricing
	}
	p = &finopsv1.ResolvedPricing{
		ResolvedAt:      metav1.NewTime(e.s.Now.UTC().Truncate(time.Second)),
		Meters:          []finopsv1.ResolvedMeter{},
		SubscriptionFee: copyFee(o.Spec.Pricing.SubscriptionFee),
	}
	if len(o.Spec.Pricing.ResourcePricing) == 0 {
		return rulePassed, "", p
	}
	if e.fails.list(finopsv1.KindPriceBook) ||
		e.book >= 0 && e.fails.get(finopsv1.KindPriceBook, e.s.PriceBooks[e.book].Namespace, e.s.PriceBooks[e.book].Name) {
		return ruleReadFailed, "cannot read the active pricebook", nil
	}
	if e.book < 0 || e.s.PriceBooks[e.book].Spec.ValuationMode != finopsv1.ValuationCurrency {
		return ruleNoActiveBook, fmt.Sprintf("offering %s/%s: no active pricebook to resolve metered pricing", o.Namespace, o.Name), nil
	}
	meters, err := resolveMeters(o.Spec.Pricing.ResourcePricing, &e.s.PriceBooks[e.book])
	if err != nil {
		return ruleBookParseFailed, err.Error(), nil
	}
	p.Meters = meters
	return rulePassed, "", p
}

func copyFee(f *finopsv1.SubscriptionFee) *finopsv1.SubscriptionFee {
	if f == nil {
		return nil
	}
	c := *f
	if f.MinPeriods != nil {
		m := *f.MinPeriods
		c.MinPeriods = &m
	}
	return &c
}
