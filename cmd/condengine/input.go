package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/condengine/condengine/manifest"
)

// document is one manifest of an input stream, with where it came from so
// that every error can name it.
type document struct {
	// where is "FILE: document N" or "FILE: document N, items[i]".
	where string
	raw   json.RawMessage
	ident manifest.Header
}

// stream reads the documents of a YAML or JSON manifest stream one at a
// time, expanding List objects (kubectl get -o yaml) into their items, so
// the raw text of the whole input is never held at once.
type stream struct {
	name    string
	r       *manifest.Reader
	pending []document
	first   *pendingRaw
}

func newStream(name string, r io.Reader) *stream {
	return &stream{name: name, r: manifest.NewReader(r)}
}

// rawDocument returns the next non-empty document as JSON, and its index.
func (s *stream) rawDocument() ([]byte, int, error) {
	js, n, err := s.r.Next()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, n, fmt.Errorf("%s: %w", s.name, err)
	}
	return js, n, err
}

// next returns the next manifest, or io.EOF.
func (s *stream) next() (document, error) {
	if len(s.pending) > 0 {
		d := s.pending[0]
		s.pending = s.pending[1:]
		return d, nil
	}
	var js []byte
	var where string
	if s.first != nil {
		js, where = s.first.js, s.first.where
		s.first = nil
	} else {
		raw, n, err := s.rawDocument()
		if err != nil {
			return document{}, err
		}
		js, where = raw, fmt.Sprintf("%s: document %d", s.name, n)
	}
	d, err := identify(where, js)
	if err != nil {
		return document{}, err
	}
	if !d.ident.IsList() {
		return d, nil
	}
	items, err := manifest.Items(js)
	if err != nil {
		return document{}, fmt.Errorf("%s: %w", where, err)
	}
	for i, item := range items {
		it, err := identify(fmt.Sprintf("%s, items[%d]", where, i), item)
		if err != nil {
			return document{}, err
		}
		if it.ident.IsList() {
			return document{}, fmt.Errorf("%s: a List inside a List is not supported", it.where)
		}
		s.pending = append(s.pending, it)
	}
	return s.next()
}

func identify(where string, js []byte) (document, error) {
	d := document{where: where, raw: js}
	h, err := manifest.ReadHeader(js)
	if err != nil {
		return d, fmt.Errorf("%s: %w", where, err)
	}
	d.ident = h
	switch {
	case h.Kind == "":
		return d, fmt.Errorf("%s: kind: required", where)
	case h.APIVersion == "":
		return d, fmt.Errorf("%s (%s): apiVersion: required", where, h.Kind)
	}
	if !h.IsList() && h.Metadata.Name == "" {
		return d, fmt.Errorf("%s (%s): metadata.name: required", where, h.Kind)
	}
	return d, nil
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

// unread puts document n, read by rawDocument, back in front of the
// stream.
func (s *stream) unread(js []byte, n int) {
	where := fmt.Sprintf("%s: document %d", s.name, n)
	s.first = &pendingRaw{where: where, js: js}
}

type pendingRaw struct {
	where string
	js    []byte
}
