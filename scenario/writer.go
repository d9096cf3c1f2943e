package scenario

import (
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Writer is a binding scenario's `writer:` block: the status writer's
// memory per Binding and, optionally, limits that differ from the
// defaults. Whether the replica leads comes from broker.leader.
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
//	      lookedAt: ["2026-11-30T09:53:00Z"]             # optional: earlier decisions, as they happened
type Writer struct {
	// Limits changes some of the writer's limits; nil keeps the defaults.
	Limits *WriterLimits `json:"limits,omitempty"`
	// Bindings holds the memory of each Binding the writer wrote before.
	Bindings []WriterMemory `json:"bindings,omitempty"`
}

// WriterLimits lists the writer's limits a scenario may change; a field
// left out keeps the runner's default.
type WriterLimits struct {
	// WriteGap is the least time between two writes of one Binding.
	WriteGap *metav1.Duration `json:"writeGap,omitempty"`
	// WriterTick is how often the writer looks at its queue.
	WriterTick *metav1.Duration `json:"writerTick,omitempty"`
	// BackoffCap bounds the wait after failed writes.
	BackoffCap *metav1.Duration `json:"backoffCap,omitempty"`
	// FightEdits is how many foreign edits within FightWindow make a
	// fight.
	FightEdits *int `json:"fightEdits,omitempty"`
	// FightWindow is the window FightEdits are counted in.
	FightWindow *metav1.Duration `json:"fightWindow,omitempty"`
	// Quiet is how long without a foreign edit ends a fight.
	Quiet *metav1.Duration `json:"quiet,omitempty"`
}

// WriterMemory is the writer's memory of one Binding.
type WriterMemory struct {
	// Binding is "namespace/name".
	Binding string `json:"binding"`
	// UID is the object the memory is of; empty means the Binding's
	// current UID.
	UID string `json:"uid,omitempty"`
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
	// LookedAt lists earlier instants, in the order they happened, at
	// which the writer decided for this Binding on the same world without
	// writing. A runner decides at each of them first, carrying the
	// memory from one decision to the next as a host does, then at now.
	// Its clock may have stepped back between two of them.
	LookedAt []metav1.Time `json:"lookedAt,omitempty"`
}

// Validate reports what the block's format does not allow: a limit of
// zero or less, a binding that is not namespace/name or is listed twice,
// a negative count, a lookedAt entry without a time. How limits relate to each other (a cap below a gap)
// is checked by the runner, which knows their defaults.
// A nil block is valid.
func (w *Writer) Validate() error {
	if w == nil {
		return nil
	}
	if l := w.Limits; l != nil {
		if err := errors.Join(positive("writer.limits.writeGap", l.WriteGap), positive("writer.limits.writerTick", l.WriterTick),
			positive("writer.limits.backoffCap", l.BackoffCap), atLeastOne("writer.limits.fightEdits", l.FightEdits),
			positive("writer.limits.fightWindow", l.FightWindow), positive("writer.limits.quiet", l.Quiet)); err != nil {
			return err
		}
	}
	seen := make(map[string]bool, len(w.Bindings))
	for i, b := range w.Bindings {
		if _, _, ok := SplitName(b.Binding); !ok {
			return fmt.Errorf("writer.bindings[%d].binding: %q is not namespace/name", i, b.Binding)
		}
		if b.Failures < 0 || b.FightEdits < 0 {
			return fmt.Errorf("writer.bindings[%d]: failures and fightEdits must not be negative", i)
		}
		for j, at := range b.LookedAt {
			if at.IsZero() {
				return fmt.Errorf("writer.bindings[%d].lookedAt[%d] is required", i, j)
			}
		}
		if seen[b.Binding] {
			return fmt.Errorf("writer.bindings[%d].binding: %s is listed twice", i, b.Binding)
		}
		seen[b.Binding] = true
	}
	return nil
}
