package system

import (
	"fmt"
	"slices"
	"strings"

	"github.com/condengine/condengine/internal/suggest"
)

// Find returns the system of systems named name. For any other name the
// error lists the names known and, when one is close, asks "did you
// mean".
func Find(name string, systems ...*System) (*System, error) {
	var known []string
	for _, s := range systems {
		if s == nil {
			continue
		}
		if s.Name == name {
			return s, nil
		}
		known = append(known, s.Name)
	}
	msg := fmt.Sprintf("no system %q", name)
	if s := suggest.Nearest(name, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return nil, fmt.Errorf("%s; known: %s", msg, strings.Join(known, ", "))
}

// ResolveKind returns the kind with conditions (one with a Vocabulary)
// of systems that a command-line name stands for, reading the name as
// kubectl does: any of Kind.Names, in any case, optionally followed by
// the API group ("bindings.agentkourier.dev"). Systems and their kinds
// are searched in the order given. For any other name the error lists
// the kinds with conditions and, when a name is close, asks "did you
// mean"; a name of a kind of another group says which group it is in.
func ResolveKind(name string, systems ...*System) (Kind, error) {
	lower := strings.ToLower(name)
	resource, group, qualified := strings.Cut(lower, ".")
	var all, known []string
	hint := ""
	for _, s := range systems {
		if s == nil {
			continue
		}
		for _, k := range s.Kinds {
			if k.Vocabulary == nil {
				continue
			}
			names := k.Names()
			known = append(known, k.Kind)
			all = append(all, names...)
			if !slices.Contains(names, resource) {
				continue
			}
			if !qualified || group == strings.ToLower(k.Group) {
				return k, nil
			}
			if hint == "" {
				hint = fmt.Sprintf(" (%s is in the API group %s)", resource, k.Group)
			}
		}
	}
	msg := fmt.Sprintf("unknown kind %q", name)
	if hint != "" {
		msg += hint
	} else if s := suggest.Nearest(resource, all); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return Kind{}, fmt.Errorf("%s; kinds with conditions: %s", msg, strings.Join(known, ", "))
}
