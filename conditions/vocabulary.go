package conditions

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Reason is one (status, reason) pair that a condition type may carry,
// with the text that the documentation and the command-line tool print.
type Reason struct {
	// Status is the condition status this reason goes with.
	Status metav1.ConditionStatus
	// Reason is the CamelCase reason string written to the object.
	Reason string
	// Meaning is one line saying what the pair tells the reader.
	Meaning string
	// Action is one line saying what the reader should do about it.
	Action string
	// Message is the fixed message an engine writes with this pair, when
	// it writes a fixed one; empty when the message is composed per object.
	Message string
	// Terminal marks a state the object never leaves. A non-terminal pair
	// is transient: the next evaluation may move it.
	Terminal bool
}

// Type describes one condition type of a kind: where it stands in the
// fixed order and which (status, reason) pairs it may carry.
type Type struct {
	// Name is the condition type, e.g. "Ready".
	Name string
	// Meaning is one line saying what the condition describes.
	Meaning string
	// Required types must be present whenever any condition of the
	// vocabulary is present on an object.
	Required bool
	// Reasons is the closed set of pairs; nothing else is valid.
	Reasons []Reason
}

// Vocabulary is the table of condition types one kind writes, in the order
// they appear on the object. Documentation, validation, the compliance
// checker, the tests and the command-line tool all read it, so a reason
// exists exactly when it is listed here.
//
// A Vocabulary is immutable once built and safe for concurrent use.
type Vocabulary struct {
	kind       string
	apiVersion string
	types      []Type
	// emptyMessageWhenTrue makes Validate reject a True condition with a
	// non-empty message.
	emptyMessageWhenTrue bool
	order                map[string]int
	pairs                map[pairKey]int // index into types[t].Reasons
	rules                []Rule          // the table the reasons were read from
	err                  error           // set by an option that failed
}

type pairKey struct {
	typ    string
	status metav1.ConditionStatus
	reason string
}

// Option adjusts a Vocabulary being built.
type Option func(*Vocabulary)

// EmptyMessageWhenTrue makes Validate require an empty message on every
// condition whose status is True (the Binding's rule).
func EmptyMessageWhenTrue() Option {
	return func(v *Vocabulary) { v.emptyMessageWhenTrue = true }
}

// NewVocabulary builds the vocabulary of one kind. The order of types is
// the order conditions are written in. It fails on an empty or repeated
// type, an invalid status, or a repeated (type, status, reason).
func NewVocabulary(apiVersion, kind string, types []Type, opts ...Option) (*Vocabulary, error) {
	v := &Vocabulary{
		kind:       kind,
		apiVersion: apiVersion,
		types:      slices.Clone(types),
		order:      make(map[string]int, len(types)),
		pairs:      map[pairKey]int{},
	}
	if kind == "" {
		return nil, fmt.Errorf("vocabulary: kind is empty")
	}
	for _, o := range opts {
		o(v)
	}
	if v.err != nil {
		return nil, v.err
	}
	for i, t := range v.types {
		if t.Name == "" {
			return nil, fmt.Errorf("vocabulary %s: type %d has no name", kind, i)
		}
		if _, dup := v.order[t.Name]; dup {
			return nil, fmt.Errorf("vocabulary %s: type %q listed twice", kind, t.Name)
		}
		v.order[t.Name] = i
		v.types[i].Reasons = slices.Clone(t.Reasons)
		for j, r := range t.Reasons {
			switch r.Status {
			case metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown:
			default:
				return nil, fmt.Errorf("vocabulary %s: %s reason %q has status %q", kind, t.Name, r.Reason, r.Status)
			}
			if r.Reason == "" {
				return nil, fmt.Errorf("vocabulary %s: %s has an empty reason", kind, t.Name)
			}
			k := pairKey{t.Name, r.Status, r.Reason}
			if _, dup := v.pairs[k]; dup {
				return nil, fmt.Errorf("vocabulary %s: %s %s %s listed twice", kind, t.Name, r.Status, r.Reason)
			}
			v.pairs[k] = j
		}
	}
	return v, nil
}

// MustVocabulary is NewVocabulary for tables written in source code, where
// an error is a programming mistake caught by the package's own tests.
func MustVocabulary(apiVersion, kind string, types []Type, opts ...Option) *Vocabulary {
	v, err := NewVocabulary(apiVersion, kind, types, opts...)
	if err != nil {
		panic(err)
	}
	return v
}

// Kind is the kind the vocabulary belongs to, e.g. "Binding".
func (v *Vocabulary) Kind() string { return v.kind }

// APIVersion is the group/version of the kind.
func (v *Vocabulary) APIVersion() string { return v.apiVersion }

// Types returns the condition types in their fixed order. The slice is a
// copy; the caller may keep or change it.
func (v *Vocabulary) Types() []Type {
	out := slices.Clone(v.types)
	for i := range out {
		out[i].Reasons = slices.Clone(out[i].Reasons)
	}
	return out
}

// Has reports whether typ is one of this kind's condition types.
func (v *Vocabulary) Has(typ string) bool {
	return v.Index(typ) >= 0
}

// Index is the position of typ in the fixed order, or -1 when typ is not
// one of this kind's types.
func (v *Vocabulary) Index(typ string) int {
	// A kind has a handful of types: comparing them beats hashing.
	if len(v.types) <= 8 {
		for i := range v.types {
			if v.types[i].Name == typ {
				return i
			}
		}
		return -1
	}
	if i, ok := v.order[typ]; ok {
		return i
	}
	return -1
}

// Lookup finds the vocabulary entry for a (type, status, reason) triple.
func (v *Vocabulary) Lookup(typ string, status metav1.ConditionStatus, reason string) (Reason, bool) {
	j, ok := v.pairs[pairKey{typ, status, reason}]
	if !ok {
		return Reason{}, false
	}
	return v.types[v.order[typ]].Reasons[j], true
}

// IsTerminal reports whether the condition's (type, status, reason) is a
// terminal state of this kind. Unknown triples are not terminal.
func (v *Vocabulary) IsTerminal(c metav1.Condition) bool {
	r, ok := v.Lookup(c.Type, c.Status, c.Reason)
	return ok && r.Terminal
}
