package cli

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/condengine/condengine/manifest"
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
	// ak gathers the Agent Kourier objects; with straight set, it takes
	// the documents that decode straight into them
	// (manifest.Reader.NextTyped), which rawDocument then passes over.
	ak       *akObjects
	straight bool
	// decoded counts the documents decoded straight.
	decoded int
	// out, when set, is where the Bindings of a manifest stream are
	// written as they are decided, rather than kept in the world.
	out *listOut
}

// newStream reads the manifests of r, named name in errors. When r is
// the budget limitMemory returned, it is told each document's size.
func newStream(name string, r io.Reader) *stream {
	mr := manifest.NewReader(r)
	mr.File = name
	if b, ok := r.(*budget); ok {
		mr.Sized = b.document
	}
	return &stream{name: name, r: mr}
}

// rawDocument returns the next non-empty document as written, Lists not
// expanded, or io.EOF.
func (s *stream) rawDocument() (*manifest.Document, error) {
	if !s.straight || s.ak == nil {
		return s.r.Next()
	}
	for {
		s.ak.reset()
		d, typed, err := s.r.NextTyped(&s.seen, s.ak.slot)
		if err != nil || !typed {
			s.ak.reset()
			return d, err
		}
		s.ak.keep()
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
