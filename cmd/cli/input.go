package cli

import (
	"encoding/json"
	"errors"
	"io"
	"slices"

	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// stream reads the documents of a YAML or JSON manifest stream one at a
// time through manifest.Reader, the reader `check` and the library
// decoders use too, with the same limits and the same errors. List
// objects (kubectl get -o yaml) are expanded into their items, nested
// Lists too, and a second object of an identity already read is refused,
// so the raw text of the whole input is never held at once.
type stream struct {
	name    string
	r       *manifest.Reader
	pending []*manifest.Document
	first   *manifest.Document
	seen    manifest.Identities
	// parts are the systems' shares of the input, one per system, in
	// the command's order; route finds a manifest's.
	parts []*part
	route router
	// straight has the systems with a Stream take the documents that
	// decode straight into their types (manifest.Reader.NextTyped),
	// which rawDocument then passes over; handed are the parts that
	// handed out a slot for the document being read.
	straight bool
	handed   []*part
	// decoded counts the documents decoded straight.
	decoded int
	// out, when set, is where the objects of a manifest stream are
	// written as they are decided, rather than kept in the world.
	out *listOut
}

// newStream reads the manifests of r, named name in errors, for the
// systems of c. When r is the budget limitMemory returned, it is told
// each document's size.
func (c *Command) newStream(name string, r io.Reader) *stream {
	mr := manifest.NewReader(r)
	mr.File = name
	if b, ok := r.(*budget); ok {
		mr.Sized = b.document
	}
	s := &stream{name: name, r: mr, route: newRouter(c.Systems)}
	for _, sys := range c.Systems {
		p := &part{sys: sys}
		if sys.Stream != nil {
			p.stream = sys.Stream()
		} else {
			p.file = &scenario.File{Path: name, Name: name, System: sys.Name}
		}
		s.parts = append(s.parts, p)
	}
	return s
}

// slot hands out where a document of apiVersion and kind is decoded
// straight: a value of the first system's Stream that has one.
func (s *stream) slot(apiVersion, kind string) any {
	for _, p := range s.parts {
		if p.stream == nil {
			continue
		}
		if v := p.stream.Slot(apiVersion, kind); v != nil {
			if !slices.Contains(s.handed, p) {
				s.handed = append(s.handed, p)
			}
			return v
		}
	}
	return nil
}

// rawDocument returns the next non-empty document as written, Lists not
// expanded, or io.EOF.
func (s *stream) rawDocument() (*manifest.Document, error) {
	if !s.straight {
		return s.r.Next()
	}
	for {
		s.handed = s.handed[:0]
		d, typed, err := s.r.NextTyped(&s.seen, s.slot)
		for _, p := range s.handed {
			if typed && err == nil {
				p.stream.Keep()
			} else {
				p.stream.Drop()
			}
		}
		if err != nil || !typed {
			return d, err
		}
		s.decoded++
	}
}

// next returns the next manifest, or io.EOF. Every other error is a
// *manifest.DocumentError.
func (s *stream) next() (*manifest.Document, error) {
	for len(s.pending) == 0 {
		d := s.first
		s.first = nil
		if d == nil {
			var err error
			if d, err = s.rawDocument(); err != nil {
				return nil, err
			}
		}
		if err := d.ExpandNew(&s.seen, func(it *manifest.Document) error {
			if err := identify(it); err != nil {
				return err
			}
			s.pending = append(s.pending, it)
			return nil
		}); err != nil {
			return nil, err
		}
	}
	d := s.pending[0]
	s.pending[0] = nil
	s.pending = s.pending[1:]
	return d, nil
}

// identify reads a manifest's identity, which every manifest must have.
func identify(d *manifest.Document) error {
	h, err := d.Identify()
	if err != nil {
		return d.Fail(err)
	}
	switch {
	case h.Kind == "":
		return d.Fail(errors.New("kind: required"))
	case h.APIVersion == "":
		return d.Fail(errors.New("apiVersion: required"))
	case h.Metadata.Name == "":
		return d.FailAt("metadata", errors.New("metadata.name: required"))
	}
	return nil
}

// looksLikeScenario reports whether a first document is a scenario file
// rather than a manifest: scenarios have a system and no kind.
func looksLikeScenario(js []byte) bool {
	var probe struct {
		System *string `json:"system"`
		Kind   *string `json:"kind"`
	}
	if json.Unmarshal(js, &probe) != nil {
		return false
	}
	return probe.System != nil && probe.Kind == nil
}

// unread puts a document read by rawDocument back in front of the
// stream.
func (s *stream) unread(d *manifest.Document) {
	s.first = d
}

// router finds the system that reads a manifest: the one that lists its
// group and kind, else the one that writes to a kind of its group (a
// manifest of an unknown kind of agentkourier.dev is the binding
// system's, which says that it knows no such kind). A manifest of a
// group no system writes to, and of a kind none lists, is no system's.
type router struct {
	kinds  map[[2]string]int // group, kind -> system
	groups map[string]int    // group -> first system writing to it
}

func newRouter(systems []*system.System) router {
	r := router{kinds: map[[2]string]int{}, groups: map[string]int{}}
	for i, s := range systems {
		for _, k := range s.Kinds {
			if _, ok := r.kinds[[2]string{k.Group, k.Kind}]; !ok {
				r.kinds[[2]string{k.Group, k.Kind}] = i
			}
			if _, ok := r.groups[k.Group]; !ok && (k.Vocabulary != nil || k.Status || k.Finalizer != "") {
				r.groups[k.Group] = i
			}
		}
	}
	return r
}

// find is the index of the system of a manifest of group and kind; -1
// for none.
func (r router) find(group, kind string) int {
	if i, ok := r.kinds[[2]string{group, kind}]; ok {
		return i
	}
	if i, ok := r.groups[group]; ok {
		return i
	}
	return -1
}
