package hostcheck

import (
	"fmt"
	"slices"
	"strings"
)

// Counterexample is a shrunk schedule that breaks a rule, ready to print.
type Counterexample struct {
	// System is the name of the system the host belongs to.
	System string
	// Seed draws the original schedule; -hostcheck.seed replays it, and
	// the shrinker, deterministic, arrives at this counterexample again.
	Seed uint64
	// Violation is the rule the shrunk schedule breaks.
	Violation Violation
	// Steps is the length of the shrunk schedule, Drawn of the original.
	Steps, Drawn int
	// Objects is how many objects the store of the shrunk schedule
	// starts with.
	Objects int
	// Trace is the shrunk schedule as run: numbered events and, indented,
	// what the host did.
	Trace []string
}

// String prints the counterexample as a numbered list of events, the
// write that broke the rule, the rule, the engine's expected value and
// the replay line.
func (c *Counterexample) String() string {
	var b strings.Builder
	v := c.Violation
	fmt.Fprintf(&b, "hostcheck: %s host breaks %s: %s\n", c.System, v.Rule.ID, v.Rule.Text)
	objects := fmt.Sprintf("%d objects", c.Objects)
	if c.Objects == 1 {
		objects = "1 object"
	}
	fmt.Fprintf(&b, "schedule (shrunk from %d to %d events; the store starts with %s):\n", c.Drawn, c.Steps, objects)
	for _, l := range c.Trace {
		b.WriteString("  " + l + "\n")
	}
	if v.Step > 0 {
		fmt.Fprintf(&b, "broken at event %d", v.Step)
	} else {
		b.WriteString("broken after the schedule, while settling")
	}
	if v.Write != "" {
		fmt.Fprintf(&b, " by the write: %s", v.Write)
	}
	fmt.Fprintf(&b, "\n  %s\n", v.Detail)
	if v.Wrote != "" {
		fmt.Fprintf(&b, "  written:        %s\n", v.Wrote)
	}
	if v.Expected != "" {
		fmt.Fprintf(&b, "  engine expects: %s\n", v.Expected)
	}
	fmt.Fprintf(&b, "seed %d; replay: go test -run '<this test>' -hostcheck.seed=%d\n", c.Seed, c.Seed)
	return b.String()
}

// shrinkRuns bounds the executions one shrink makes.
const shrinkRuns = 400

// shrink removes events and world objects while the schedule still
// breaks the same rule: chunks of halving size, then single events,
// until nothing more can go.
func shrink(o config, newHost NewHost, s schedule, v *Violation) (*Counterexample, error) {
	drawn := len(s.Events)
	runs := 0
	fails := func(c schedule) (bool, error) {
		if runs >= shrinkRuns {
			return false, nil
		}
		runs++
		got, _, err := executeTraced(o, newHost, c)
		if err != nil {
			return false, err
		}
		return got != nil && got.Rule.ID == v.Rule.ID, nil
	}
	// Events after the one that broke a safety rule cannot matter.
	if v.Step > 0 && v.Step < len(s.Events) {
		s.Events = s.Events[:v.Step]
	}
	for size := len(s.Events) / 2; size >= 1; size /= 2 {
		for i := 0; i+size <= len(s.Events); {
			c := s
			c.Events = slices.Concat(s.Events[:i], s.Events[i+size:])
			ok, err := fails(c)
			if err != nil {
				return nil, err
			}
			if ok {
				s = c
				continue
			}
			i += size
		}
	}
	objects, err := worldSize(o, s)
	if err != nil {
		return nil, err
	}
	for i := 0; i < objects; i++ {
		if slices.Contains(s.Drop, i) {
			continue
		}
		c := s
		c.Drop = append(slices.Clone(s.Drop), i)
		ok, err := fails(c)
		if err != nil {
			return nil, err
		}
		if ok {
			s = c
		}
	}
	got, trace, err := executeTraced(o, newHost, s)
	if err != nil {
		return nil, err
	}
	if got == nil {
		got = v // cannot happen: every kept candidate broke the rule
	}
	started, err := startCount(o, newHost, s)
	if err != nil {
		return nil, err
	}
	return &Counterexample{System: o.sys.Name, Seed: s.Seed, Violation: *got, Steps: len(s.Events), Drawn: drawn,
		Objects: started, Trace: foldReconciles(trace)}, nil
}

func worldSize(o config, s schedule) (int, error) {
	w, err := o.sys.NewWorld(s.World)
	if err != nil || w == nil {
		return 0, err
	}
	return len(w.Objects), nil
}
