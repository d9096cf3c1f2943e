package offering

import "github.com/condengine/condengine/redact"

// seen is what the reader of an Offering in namespace ns sees by name:
// what that namespace holds or wrote down. That is its Offerings, the
// entries they require (of any namespace), and its Subscriptions; each by
// "namespace/name", by name and by namespace. These are the only names an
// Offering's messages carry (its own, a requirement entry, a loop path,
// its dependents), so a message the engine wrote is kept whole when it is
// redacted again. The sets of every namespace are built in one pass, on
// the first message that needs them.
func (e *evaluator) seen(ns string) redact.Names {
	return func(n string) bool {
		if e.names == nil {
			e.names = namesByNamespace(e.s)
		}
		_, ok := e.names[ns][n]
		return ok
	}
}

func namesByNamespace(s Snapshot) map[string]map[string]struct{} {
	m := map[string]map[string]struct{}{}
	note := func(in, ns, name string) {
		set := m[in]
		if set == nil {
			set = map[string]struct{}{}
			m[in] = set
		}
		for _, n := range [...]string{ns + "/" + name, ns, name} {
			if n != "" && n != "/" {
				set[n] = struct{}{}
			}
		}
	}
	for i := range s.Offerings {
		o := &s.Offerings[i]
		note(o.Namespace, o.Namespace, o.Name)
		for _, r := range requirements(o) {
			note(o.Namespace, r.Namespace, r.Name)
		}
	}
	for _, d := range s.Dependents {
		note(d.Namespace, d.Namespace, d.Name)
	}
	return m
}
