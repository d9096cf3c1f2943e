package offering

// Failure names reads that fail in a snapshot. An empty Namespace matches
// every namespace and an empty Name every name, so {Kind: "Subscription"}
// says that listing Subscriptions fails.
type Failure struct {
	Kind      string
	Namespace string
	Name      string
}

// failures answers "does this read fail" in constant time whatever the
// number of failures, so checking every requirement stays linear.
type failures struct {
	exact map[Failure]bool
	// wild holds the patterns with an empty namespace or name.
	wild []Failure
	// lists records kinds whose list calls fail: a pattern with no name.
	lists map[string]bool
}

func newFailures(fs []Failure) failures {
	f := failures{}
	for _, x := range fs {
		if x.Name == "" {
			if f.lists == nil {
				f.lists = map[string]bool{}
			}
			f.lists[x.Kind] = true
		}
		if x.Namespace != "" && x.Name != "" {
			if f.exact == nil {
				f.exact = map[Failure]bool{}
			}
			f.exact[x] = true
			continue
		}
		f.wild = append(f.wild, x)
	}
	return f
}

// get reports whether reading kind namespace/name fails.
func (f failures) get(kind, namespace, name string) bool {
	if f.exact[Failure{kind, namespace, name}] {
		return true
	}
	for _, w := range f.wild {
		if w.Kind == kind && (w.Namespace == "" || w.Namespace == namespace) && (w.Name == "" || w.Name == name) {
			return true
		}
	}
	return false
}

// list reports whether listing objects of kind fails.
func (f failures) list(kind string) bool { return f.lists[kind] }
