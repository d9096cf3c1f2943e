package scenario

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Check compares a runner's outcomes with the file's expectations. It
// returns "" when every expectation holds, and otherwise one block per
// failing object: the object's identity and a -want +got diff.
func (f *File) Check(got []Outcome) string {
	index := make(map[[3]string]*Outcome, len(got))
	for i := range got {
		o := &got[i]
		index[[3]string{o.Kind, o.Namespace, o.Name}] = o
	}
	var b strings.Builder
	for _, e := range f.Expect {
		id := e.Kind + " " + joinName(e.Namespace, e.Name)
		o := index[[3]string{e.Kind, e.Namespace, e.Name}]
		if o == nil {
			fmt.Fprintf(&b, "%s: not evaluated (no such object in the scenario)\n", id)
			continue
		}
		if d := diffExpectation(e, o); d != "" {
			fmt.Fprintf(&b, "%s (-want +got):\n%s", id, d)
		}
	}
	return b.String()
}

func joinName(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

// view is the comparable shape of one object: only what the expectation
// asks about, filled in from both sides.
type view struct {
	Conditions       []condView     `json:",omitempty"`
	Status           map[string]any `json:",omitempty"`
	FinalizerRemoved *bool          `json:",omitempty"`
	Write            *bool          `json:",omitempty"`
	Decision         *string        `json:",omitempty"`
	WaitUntil        *string        `json:",omitempty"`
	Fight            *bool          `json:",omitempty"`
	FightBegins      *bool          `json:",omitempty"`
	ForeignEdit      *bool          `json:",omitempty"`
	Pass             *passView      `json:",omitempty"`
}

// passView is the comparable shape of a prober verdict: instants to the
// nanosecond, durations as Go prints them.
type passView struct {
	Start        *bool         `json:",omitempty"`
	At           *string       `json:",omitempty"`
	Cause        *string       `json:",omitempty"`
	Targets      *[]PassTarget `json:",omitempty"`
	AtOnce       *int          `json:",omitempty"`
	ProbeTimeout *string       `json:",omitempty"`
	MaxDuration  *string       `json:",omitempty"`
}

type condView struct {
	Type, Status, Reason string
	ObservedGeneration   *int64  `json:",omitempty"`
	LastTransitionTime   *string `json:",omitempty"`
	Message              *string `json:",omitempty"`
	Notes                []string
}

func diffExpectation(e Expectation, o *Outcome) string {
	var want, got view
	if e.Conditions != nil {
		exp := *e.Conditions
		for i, ec := range exp {
			w := condView{Type: ec.Type, Status: ec.Status, Reason: ec.Reason,
				ObservedGeneration: ec.ObservedGeneration, Message: ec.Message}
			if ec.LastTransitionTime != nil {
				s := formatTime(ec.LastTransitionTime.Time)
				w.LastTransitionTime = &s
			}
			want.Conditions = append(want.Conditions, w)
			if i >= len(o.Conditions) {
				continue
			}
			got.Conditions = append(got.Conditions, project(ec, o.Conditions[i]))
		}
		for i := len(exp); i < len(o.Conditions); i++ {
			c := o.Conditions[i]
			got.Conditions = append(got.Conditions, condView{Type: c.Type, Status: string(c.Status), Reason: c.Reason})
		}
		if len(exp) == 0 && len(o.Conditions) == 0 {
			want.Conditions, got.Conditions = nil, nil
		}
	}
	if len(e.Status) > 0 && !bytes.Equal(bytes.TrimSpace(e.Status), []byte("null")) {
		var w map[string]any
		if err := decodeExact(e.Status, &w); err != nil {
			return fmt.Sprintf("  expect.status is not a map: %v\n", err)
		}
		var g map[string]any
		if len(o.Status) > 0 {
			if err := decodeExact(o.Status, &g); err != nil {
				return fmt.Sprintf("  computed status is not a map: %v\n", err)
			}
		}
		want.Status, got.Status = w, partial(w, g)
	}
	if e.FinalizerRemoved != nil {
		want.FinalizerRemoved, got.FinalizerRemoved = e.FinalizerRemoved, &o.FinalizerRemoved
	}
	if e.Write != nil {
		want.Write, got.Write = e.Write, &o.Write
	}
	if e.Decision != nil {
		want.Decision, got.Decision = e.Decision, &o.Decision
	}
	if e.WaitUntil != nil {
		w, g := formatTime(e.WaitUntil.Time), formatTime(o.WaitUntil.Time)
		want.WaitUntil, got.WaitUntil = &w, &g
	}
	if e.Fight != nil {
		want.Fight, got.Fight = e.Fight, &o.Fight
	}
	if e.FightBegins != nil {
		want.FightBegins, got.FightBegins = e.FightBegins, &o.FightBegins
	}
	if e.ForeignEdit != nil {
		want.ForeignEdit, got.ForeignEdit = e.ForeignEdit, &o.ForeignEdit
	}
	if e.Pass != nil {
		want.Pass, got.Pass = diffPass(*e.Pass, o.Pass)
	}
	return cmp.Diff(want, got, exactNumbers)
}

// formatTime renders an instant to the nanosecond, so two instants that
// differ by any amount differ in the diff (decisions §11.14: the checker
// compares every instant exactly, never to the whole second).
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// project reduces a computed condition to the fields ec asks about, and
// records the loose message checks as notes that differ only on failure.
func project(ec ExpectedCondition, c metav1.Condition) condView {
	v := condView{Type: c.Type, Status: string(c.Status), Reason: c.Reason}
	if ec.ObservedGeneration != nil {
		g := c.ObservedGeneration
		v.ObservedGeneration = &g
	}
	if ec.LastTransitionTime != nil {
		s := formatTime(c.LastTransitionTime.Time)
		v.LastTransitionTime = &s
	}
	if ec.Message != nil {
		m := c.Message
		v.Message = &m
	}
	for _, s := range ec.MessageContains {
		if !strings.Contains(c.Message, s) {
			v.Notes = append(v.Notes, fmt.Sprintf("message %q lacks %q", c.Message, s))
		}
	}
	for _, s := range ec.MessageExcludes {
		if strings.Contains(c.Message, s) {
			v.Notes = append(v.Notes, fmt.Sprintf("message %q contains %q", c.Message, s))
		}
	}
	if ec.MessageMaxBytes > 0 && len(c.Message) > ec.MessageMaxBytes {
		v.Notes = append(v.Notes, fmt.Sprintf("message is %d bytes, more than %d", len(c.Message), ec.MessageMaxBytes))
	}
	return v
}

// partial keeps from got only the keys want names, recursively for maps;
// a key whose wanted value is null stays null in the projection only when
// got lacks it, so a present field shows up in the diff.
func partial(want, got map[string]any) map[string]any {
	out := make(map[string]any, len(want))
	for k, wv := range want {
		gv, ok := got[k]
		switch {
		case wv == nil:
			if ok {
				out[k] = gv
			} else {
				out[k] = nil
			}
		case !ok:
			// absent: leave the key out so the diff shows it missing
		default:
			wm, wIsMap := wv.(map[string]any)
			gm, gIsMap := gv.(map[string]any)
			if wIsMap && gIsMap {
				out[k] = partial(wm, gm)
			} else {
				out[k] = gv
			}
		}
	}
	return out
}

// diffPass projects an expected and a computed prober verdict onto the
// keys the expectation gives. A runner that reports no verdict shows as
// an empty one, so every expected key appears in the diff.
func diffPass(e PassExpectation, p *Pass) (want, got *passView) {
	if p == nil {
		p = &Pass{}
	}
	want, got = &passView{}, &passView{}
	if e.Start != nil {
		want.Start, got.Start = e.Start, &p.Start
	}
	if e.At != nil {
		w, g := formatTime(e.At.Time), formatTime(p.At)
		want.At, got.At = &w, &g
	}
	if e.Cause != nil {
		want.Cause, got.Cause = e.Cause, &p.Cause
	}
	if e.Targets != nil {
		g := p.Targets
		if g == nil {
			g = []PassTarget{}
		}
		w := *e.Targets
		if w == nil {
			w = []PassTarget{}
		}
		want.Targets, got.Targets = &w, &g
	}
	if e.AtOnce != nil {
		want.AtOnce, got.AtOnce = e.AtOnce, &p.AtOnce
	}
	if e.ProbeTimeout != nil {
		w, g := e.ProbeTimeout.Duration.String(), p.ProbeTimeout.String()
		want.ProbeTimeout, got.ProbeTimeout = &w, &g
	}
	if e.MaxDuration != nil {
		w, g := e.MaxDuration.Duration.String(), p.MaxDuration.String()
		want.MaxDuration, got.MaxDuration = &w, &g
	}
	return want, got
}
