package system

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/condengine/condengine/conditions"
)

// name is the form of a system's name: it is a scenario's system key
// and a directory of a corpus, so it is kept to a DNS label.
var name = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// Validate reports every way in which systems, each alone and all
// together, break the contract a tool relies on, joined in one error
// (nil when there is none), each problem starting with the system's
// name:
//
//   - a system has a name of the right form (lower-case letters, digits
//     and dashes), a Run, and at least one kind; no two systems share a
//     name;
//   - every kind has a kind, a version and a plural; its vocabulary, if
//     any, is of that kind and apiVersion; no two kinds (of any system)
//     share a group and kind, no two kinds of one system share a kind,
//     and no name a kubectl user types stands for two kinds of one
//     group;
//   - every rule has an ID of its own (none of conditions.SharedRules),
//     decides a kind of the system that has a vocabulary, names only
//     that vocabulary's types, and writes only (status, reason) pairs
//     the vocabulary has for one of them (for any type of the kind when
//     the rule names none);
//   - every key of Unreachable and Rare is a rule ID of the system or a
//     shared rule's, with a reason; every key of UnreachableDecisions is
//     one of the system's Decisions, with a reason;
//   - when CRDs is set, every kind the system writes to (one with a
//     vocabulary, a computed status or a finalizer) has a
//     CustomResourceDefinition there, and every kind with one there
//     agrees with it: the same plural, short names and scope, and the
//     kind's version served.
func Validate(systems ...*System) error {
	var errs []error
	names := map[string]bool{}
	kinds := map[[2]string]string{}    // group, kind -> system
	typed := map[[2]string][2]string{} // group, typed name -> system, kind
	for i, s := range systems {
		if s == nil {
			errs = append(errs, fmt.Errorf("systems[%d] is nil", i))
			continue
		}
		fail := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("system %q: "+format, append([]any{s.Name}, args...)...))
		}
		if names[s.Name] {
			fail("the name is given to two systems")
		}
		names[s.Name] = true
		for _, err := range validate(s) {
			fail("%v", err)
		}
		for _, k := range s.Kinds {
			gk := [2]string{k.Group, k.Kind}
			if other, ok := kinds[gk]; ok && other != s.Name {
				fail("kind %s is also a kind of system %q", kindID(k), other)
			}
			kinds[gk] = s.Name
			for _, n := range k.Names() {
				key := [2]string{k.Group, n}
				if other, ok := typed[key]; ok && other[1] != k.Kind {
					fail("the name %q of kind %s also stands for kind %s of system %q", n, kindID(k), other[1], other[0])
				}
				typed[key] = [2]string{s.Name, k.Kind}
			}
		}
	}
	return errors.Join(errs...)
}

// validate lists what is wrong with s alone.
func validate(s *System) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !name.MatchString(s.Name) {
		fail("the name must be 1 to 63 lower-case letters, digits and dashes, starting and ending with a letter or digit")
	}
	if s.Run == nil {
		fail("Run is nil")
	}
	if len(s.Kinds) == 0 {
		fail("the system has no kinds")
	}
	byKind := map[string]Kind{}
	for i, k := range s.Kinds {
		switch {
		case k.Kind == "" || k.Version == "" || k.Plural == "":
			fail("kinds[%d] (%s): kind, version and plural are required", i, kindID(k))
			continue
		case byKind[k.Kind].Kind != "":
			fail("kinds[%d]: kind %s is listed twice", i, k.Kind)
			continue
		}
		byKind[k.Kind] = k
		if v := k.Vocabulary; v != nil && (v.Kind() != k.Kind || v.APIVersion() != k.APIVersion()) {
			fail("kind %s: its vocabulary is of %s %s", kindID(k), v.APIVersion(), v.Kind())
		}
	}
	shared := map[string]bool{}
	for _, r := range conditions.SharedRules() {
		shared[r.ID] = true
	}
	ids := map[string]bool{}
	for i, r := range s.Rules {
		switch {
		case r.ID == "":
			fail("rules[%d] has no ID", i)
			continue
		case shared[r.ID]:
			fail("rule %s is a shared rule, which every kind applies; leave it out of Rules", r.ID)
		case ids[r.ID]:
			fail("rule %s is listed twice", r.ID)
		}
		ids[r.ID] = true
		k, ok := byKind[r.Kind]
		if !ok || k.Vocabulary == nil {
			fail("rule %s decides kind %q, which is not a kind of the system with a vocabulary", r.ID, r.Kind)
			continue
		}
		types := r.Types
		for _, typ := range r.Types {
			if !k.Vocabulary.Has(typ) {
				fail("rule %s: type %s is not in the vocabulary of %s", r.ID, typ, r.Kind)
			}
		}
		if len(types) == 0 {
			for _, t := range k.Vocabulary.Types() {
				types = append(types, t.Name)
			}
		}
		for _, w := range r.Writes {
			if !slices.ContainsFunc(types, func(typ string) bool {
				_, ok := k.Vocabulary.Lookup(typ, w.Status, w.Reason)
				return ok
			}) {
				fail("rule %s: %s %s is not in the vocabulary of %s for %s", r.ID, w.Status, w.Reason, r.Kind, strings.Join(types, ", "))
			}
		}
	}
	for _, m := range []struct {
		field string
		ids   map[string]string
	}{{"Unreachable", s.Unreachable}, {"Rare", s.Rare}} {
		for _, id := range sortedKeys(m.ids) {
			switch {
			case !ids[id] && !shared[id]:
				fail("%s: %s is not a rule of the system", m.field, id)
			case strings.TrimSpace(m.ids[id]) == "":
				fail("%s: %s has no reason", m.field, id)
			}
		}
	}
	decisions := s.Decisions()
	for _, d := range sortedKeys(s.UnreachableDecisions) {
		switch {
		case !slices.Contains(decisions, d):
			fail("UnreachableDecisions: %s is not a decision outcome of the system (see System.Decisions)", d)
		case strings.TrimSpace(s.UnreachableDecisions[d]) == "":
			fail("UnreachableDecisions: %s has no reason", d)
		}
	}
	if s.CRDs != nil {
		errs = append(errs, checkCRDs(s)...)
	}
	return errs
}

// kindID names a kind by its group and kind, "Binding.agentkourier.dev".
func kindID(k Kind) string {
	if k.Group == "" {
		return k.Kind
	}
	return k.Kind + "." + k.Group
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
