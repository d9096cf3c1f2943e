package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/manifest"
)

// Mismatch is one expectation of a scenario that does not hold.
type Mismatch struct {
	// Object is "Kind namespace/name" (or "Kind name").
	Object string `json:"object"`
	// Field is the path of what differs, as the scenario file spells it:
	// "conditions[0].reason", "status.activatedAt", "write"; empty when
	// the object was not evaluated at all.
	Field string `json:"field,omitempty"`
	// Want is the expectation and Got what was computed, as YAML/JSON
	// values ("OK", 1, true) or a phrase; "(absent)" for a missing value.
	Want string `json:"want"`
	Got  string `json:"got"`
}

// String reads `conditions[0].reason: want "OK", got "ChannelConflict"`.
func (m Mismatch) String() string {
	if m.Field == "" {
		return fmt.Sprintf("want %s, got %s", m.Want, m.Got)
	}
	return fmt.Sprintf("%s: want %s, got %s", m.Field, m.Want, m.Got)
}

// Check compares a runner's outcomes with the file's expectations. It
// returns "" when every expectation holds, and otherwise one block per
// failing object: the object's identity, then one line per mismatch.
func (f *File) Check(got []Outcome) string {
	return FormatMismatches(f.Mismatches(got))
}

// FormatMismatches renders mismatches as Check does: grouped under the
// object they concern, in order.
func FormatMismatches(ms []Mismatch) string {
	var b strings.Builder
	last := ""
	for i, m := range ms {
		if i == 0 || m.Object != last {
			b.WriteString(m.Object)
			b.WriteString(":\n")
			last = m.Object
		}
		b.WriteString("  ")
		b.WriteString(m.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Mismatches lists every expectation of the file that the outcomes do
// not meet, object by object in the order of expect.
func (f *File) Mismatches(got []Outcome) []Mismatch {
	index := make(map[[3]string]*Outcome, len(got))
	for i := range got {
		o := &got[i]
		index[[3]string{o.Kind, o.Namespace, o.Name}] = o
	}
	var out []Mismatch
	for _, e := range f.Expect {
		id := e.Kind + " " + manifest.JoinName(e.Namespace, e.Name)
		o := index[[3]string{e.Kind, e.Namespace, e.Name}]
		if o == nil {
			out = append(out, Mismatch{Object: id, Want: "an outcome", Got: "not evaluated (no such object in the scenario)"})
			continue
		}
		c := checker{id: id}
		c.expectation(e, o)
		out = append(out, c.out...)
	}
	return out
}

const absent = "(absent)"

type checker struct {
	id  string
	out []Mismatch
}

func (c *checker) add(field, want, got string) {
	if want != got {
		c.out = append(c.out, Mismatch{Object: c.id, Field: field, Want: want, Got: got})
	}
}

func (c *checker) expectation(e Expectation, o *Outcome) {
	if e.Conditions != nil {
		c.conditions(*e.Conditions, o.Conditions)
	}
	for i, w := range e.ConditionsInclude {
		at := fmt.Sprintf("conditionsInclude[%d]", i)
		j := slices.IndexFunc(o.Conditions, func(g metav1.Condition) bool { return g.Type == w.Type })
		if j < 0 {
			c.add(at, summary(w.Type, w.Status, w.Reason), absent)
			continue
		}
		c.condition(at, w, o.Conditions[j])
	}
	if len(e.Status) > 0 && !bytes.Equal(bytes.TrimSpace(e.Status), []byte("null")) {
		c.status(e.Status, o.Status)
	}
	if e.FinalizerRemoved != nil {
		c.add("finalizerRemoved", strconv.FormatBool(*e.FinalizerRemoved), strconv.FormatBool(o.Finalizer == conditions.FinalizerRemove))
	}
	if e.Write != nil {
		c.add("write", strconv.FormatBool(*e.Write), strconv.FormatBool(o.Write))
	}
	if e.RetryAt != nil {
		c.add("retryAt", quote(wantRetry(*e.RetryAt)), quote(gotRetry(o.RetryAt)))
	}
	if e.Decision != nil {
		c.add("decision", quote(*e.Decision), quote(o.Decision))
	}
	if e.WaitUntil != nil {
		c.add("waitUntil", quote(formatTime(e.WaitUntil.Time)), quote(formatTime(o.WaitUntil.Time)))
	}
	if e.Fight != nil {
		c.add("fight", strconv.FormatBool(*e.Fight), strconv.FormatBool(o.Fight))
	}
	if e.FightBegins != nil {
		c.add("fightBegins", strconv.FormatBool(*e.FightBegins), strconv.FormatBool(o.FightBegins))
	}
	if e.ForeignEdit != nil {
		c.add("foreignEdit", strconv.FormatBool(*e.ForeignEdit), strconv.FormatBool(o.ForeignEdit))
	}
	if e.Pass != nil {
		c.pass(*e.Pass, o.Pass)
	}
}

// wantRetry is an expectation's retryAt as the checker prints it: its
// instant to the nanosecond, or RetryNone. File.Validate refuses any
// other text; one that slipped through is shown as written.
func wantRetry(s string) string {
	if s == RetryNone {
		return s
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return formatTime(t)
}

// gotRetry is an outcome's RetryAt as the checker prints it.
func gotRetry(t time.Time) string {
	if t.IsZero() {
		return RetryNone
	}
	return formatTime(t)
}

// pass compares a prober verdict key by key, on the keys the expectation
// gives: instants to the nanosecond, durations as Go prints them. A
// runner that reports no verdict reads as an empty one, so every
// expected key shows.
func (c *checker) pass(e PassExpectation, p *Pass) {
	if p == nil {
		p = &Pass{}
	}
	if e.Start != nil {
		c.add("pass.start", strconv.FormatBool(*e.Start), strconv.FormatBool(p.Start))
	}
	if e.At != nil {
		c.add("pass.at", quote(formatTime(e.At.Time)), quote(formatTime(p.At)))
	}
	if e.Cause != nil {
		c.add("pass.cause", quote(*e.Cause), quote(p.Cause))
	}
	if e.Targets != nil {
		w, g := *e.Targets, p.Targets
		if w == nil {
			w = []PassTarget{}
		}
		if g == nil {
			g = []PassTarget{}
		}
		c.add("pass.targets", render(w), render(g))
	}
	if e.AtOnce != nil {
		c.add("pass.atOnce", strconv.Itoa(*e.AtOnce), strconv.Itoa(p.AtOnce))
	}
	if e.ProbeTimeout != nil {
		c.add("pass.probeTimeout", e.ProbeTimeout.Duration.String(), p.ProbeTimeout.String())
	}
	if e.MaxDuration != nil {
		c.add("pass.maxDuration", e.MaxDuration.Duration.String(), p.MaxDuration.String())
	}
}

// conditions compares the exact list, in order: per position the type,
// status and reason, and the other fields the expectation names.
func (c *checker) conditions(want []ExpectedCondition, got []metav1.Condition) {
	for i, w := range want {
		at := fmt.Sprintf("conditions[%d]", i)
		if i >= len(got) {
			c.add(at, summary(w.Type, w.Status, w.Reason), absent)
			continue
		}
		c.condition(at, w, got[i])
	}
	for i := len(want); i < len(got); i++ {
		g := got[i]
		c.add(fmt.Sprintf("conditions[%d]", i), absent, summary(g.Type, string(g.Status), g.Reason))
	}
}

// condition compares one condition, at the path at: the type, status and
// reason, and the other fields the expectation names.
func (c *checker) condition(at string, w ExpectedCondition, g metav1.Condition) {
	c.add(at+".type", quote(w.Type), quote(g.Type))
	c.add(at+".status", quote(w.Status), quote(string(g.Status)))
	c.add(at+".reason", quote(w.Reason), quote(g.Reason))
	if w.ObservedGeneration != nil {
		c.add(at+".observedGeneration", strconv.FormatInt(*w.ObservedGeneration, 10), strconv.FormatInt(g.ObservedGeneration, 10))
	}
	if w.LastTransitionTime != nil {
		c.add(at+".lastTransitionTime", quote(formatTime(w.LastTransitionTime.Time)), quote(formatTime(g.LastTransitionTime.Time)))
	}
	if w.Message != nil {
		c.add(at+".message", quote(*w.Message), quote(g.Message))
	}
	for _, s := range w.MessageContains {
		if !strings.Contains(g.Message, s) {
			c.add(at+".message", "a message containing "+quote(s), quote(g.Message))
		}
	}
	for _, s := range w.MessageExcludes {
		if strings.Contains(g.Message, s) {
			c.add(at+".message", "a message without "+quote(s), quote(g.Message))
		}
	}
	if w.MessageMaxBytes > 0 && len(g.Message) > w.MessageMaxBytes {
		c.add(at+".message", fmt.Sprintf("at most %d bytes", w.MessageMaxBytes), fmt.Sprintf("%d bytes", len(g.Message)))
	}
}

func summary(typ, status, reason string) string {
	return fmt.Sprintf("{type: %s, status: %s, reason: %s}", quote(typ), quote(status), quote(reason))
}

// status checks a partial status: maps key by key, lists and scalars
// exactly (numbers by their exact decimal value, see exactNumbers), null
// for a field that must be absent (or null).
func (c *checker) status(wantRaw, gotRaw json.RawMessage) {
	var w map[string]any
	if err := decodeExact(wantRaw, &w); err != nil {
		c.add("status", "a map", "expect.status does not parse: "+err.Error())
		return
	}
	var g map[string]any
	if len(bytes.TrimSpace(gotRaw)) > 0 {
		if err := decodeExact(gotRaw, &g); err != nil {
			c.add("status", "a map", "a status that is not one: "+err.Error())
			return
		}
	}
	c.partial("status", w, g)
}

func (c *checker) partial(path string, want, got map[string]any) {
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		wv := want[k]
		gv, ok := got[k]
		at := path + "." + k
		switch {
		case wv == nil:
			if ok && gv != nil {
				c.add(at, absent, render(gv))
			}
		case !ok || gv == nil:
			c.add(at, render(wv), absent)
		default:
			wm, wIsMap := wv.(map[string]any)
			gm, gIsMap := gv.(map[string]any)
			if wIsMap && gIsMap {
				c.partial(at, wm, gm)
			} else if !cmp.Equal(wv, gv, exactNumbers) {
				c.out = append(c.out, Mismatch{Object: c.id, Field: at, Want: render(wv), Got: render(gv)})
			}
		}
	}
}

func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func quote(s string) string { return strconv.Quote(s) }

// formatTime renders an instant to the nanosecond, so two instants that
// differ by any amount differ: the checker compares every instant
// exactly, never to the whole second.
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}
