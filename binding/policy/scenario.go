package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// WriterBlock is the shape of a binding scenario's `writer:` key: the
// status writer's memory per Binding and, optionally, limits that differ
// from the defaults. Whether the replica leads comes from `broker.leader`.
//
//	writer:
//	  limits: {writeGap: 10s, backoffCap: 5m, fightEdits: 3}   # optional
//	  bindings:
//	    - binding: team-a/chat          # namespace/name, required
//	      uid: u-chat                   # optional; memory of another UID is not used
//	      lastWritten: [...]            # conditions this writer last wrote; absent: never wrote
//	      lastWriteEnd: "2026-11-30T09:59:55Z"
//	      failures: 2                   # failed attempts since the last success
//	      foreignEdits: ["2026-11-30T09:58:00Z", ...]   # foreign edits counted so far
//	      foreignStatus: [...]          # optional: the foreign status last counted
//	      fightSince: "2026-11-30T09:58:30Z"             # optional: a fight is on since
//	      fightEdits: 4                 # foreign edits counted in that fight
type WriterBlock struct {
	// Limits changes some of the writer's limits; nil keeps the defaults.
	Limits *LimitsOverride `json:"limits,omitempty"`
	// Bindings holds the memory of each Binding the writer wrote before.
	Bindings []WriterBinding `json:"bindings,omitempty"`
}

// LimitsOverride lists the writer's limits a scenario may change; a field
// left out keeps its default.
type LimitsOverride struct {
	// WriteGap overrides Limits.WriteGap, e.g. "10s".
	WriteGap *metav1.Duration `json:"writeGap,omitempty"`
	// WriterTick overrides Limits.WriterTick.
	WriterTick *metav1.Duration `json:"writerTick,omitempty"`
	// BackoffCap overrides Limits.BackoffCap.
	BackoffCap *metav1.Duration `json:"backoffCap,omitempty"`
	// FightEdits overrides Limits.FightEdits.
	FightEdits *int `json:"fightEdits,omitempty"`
	// FightWindow overrides Limits.FightWindow.
	FightWindow *metav1.Duration `json:"fightWindow,omitempty"`
	// Quiet overrides Limits.Quiet.
	Quiet *metav1.Duration `json:"quiet,omitempty"`
}

// WriterBinding is the writer's memory of one Binding in a scenario.
type WriterBinding struct {
	// Binding is "namespace/name".
	Binding string `json:"binding"`
	// UID is the object the memory is of; empty means the Binding's
	// current UID.
	UID types.UID `json:"uid,omitempty"`
	// LastWritten is the status the writer last wrote; absent when it
	// never wrote this UID.
	LastWritten []metav1.Condition `json:"lastWritten,omitempty"`
	// LastWriteEnd is when the last write attempt ended.
	LastWriteEnd *metav1.Time `json:"lastWriteEnd,omitempty"`
	// Failures counts failed attempts since the last success.
	Failures int `json:"failures,omitempty"`
	// ForeignEdits are the times of foreign edits already counted.
	ForeignEdits []metav1.Time `json:"foreignEdits,omitempty"`
	// ForeignStatus is the foreign status last counted, so that seeing it
	// again is not a new edit.
	ForeignStatus []metav1.Condition `json:"foreignStatus,omitempty"`
	// FightSince is when the current fight began; absent when none is on.
	FightSince *metav1.Time `json:"fightSince,omitempty"`
	// FightEdits counts the fight's foreign edits so far.
	FightEdits int `json:"fightEdits,omitempty"`
}

// ParseWriterBlock decodes a scenario's writer block, refusing unknown
// keys, and applies its limits to DefaultLimits. An empty block gives the
// defaults and no memory.
func ParseWriterBlock(raw json.RawMessage) (WriterBlock, Limits, error) {
	lim := DefaultLimits()
	var w WriterBlock
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return w, lim, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return w, lim, fmt.Errorf("writer: %w", err)
	}
	if o := w.Limits; o != nil {
		set := func(d **metav1.Duration, into *time.Duration) {
			if *d != nil {
				*into = (*d).Duration
			}
		}
		set(&o.WriteGap, &lim.WriteGap)
		set(&o.WriterTick, &lim.WriterTick)
		set(&o.BackoffCap, &lim.BackoffCap)
		set(&o.FightWindow, &lim.FightWindow)
		set(&o.Quiet, &lim.Quiet)
		if o.FightEdits != nil {
			lim.FightEdits = *o.FightEdits
		}
		if err := lim.Validate(); err != nil {
			return w, lim, fmt.Errorf("writer.limits: %w", err)
		}
	}
	seen := map[string]bool{}
	for i, b := range w.Bindings {
		ns, name, ok := strings.Cut(b.Binding, "/")
		if !ok || ns == "" || name == "" || strings.Contains(name, "/") {
			return w, lim, fmt.Errorf("writer.bindings[%d].binding: %q is not namespace/name", i, b.Binding)
		}
		if b.Failures < 0 || b.FightEdits < 0 {
			return w, lim, fmt.Errorf("writer.bindings[%d]: failures and fightEdits must not be negative", i)
		}
		if seen[b.Binding] {
			return w, lim, fmt.Errorf("writer.bindings[%d].binding: %s is listed twice", i, b.Binding)
		}
		seen[b.Binding] = true
	}
	return w, lim, nil
}

// Memory turns the scenario's memory of one Binding into the writer's.
func (b WriterBinding) Memory(l Limits) Memory {
	m := Memory{Written: b.LastWritten, Failures: b.Failures, Foreign: b.ForeignStatus, FightEdits: b.FightEdits}
	if b.LastWriteEnd != nil {
		m.LastEnd = b.LastWriteEnd.Time
	}
	for _, t := range b.ForeignEdits {
		m.Edits = append(m.Edits, t.Time)
		if t.After(m.LastForeign) {
			m.LastForeign = t.Time
		}
	}
	sortTimes(m.Edits)
	if keep := max(l.FightEdits, 1); len(m.Edits) > keep {
		m.Edits = m.Edits[len(m.Edits)-keep:]
	}
	if b.FightSince != nil {
		m.FightSince = b.FightSince.Time
		if m.FightEdits == 0 {
			m.FightEdits = 1
		}
	}
	return m
}
