package manifest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
)

// Identities remembers the objects of a stream, so that a second object
// with the group, kind, namespace and name of an earlier one is refused,
// as the API server would refuse to create it. The version is left out:
// one object read at two versions is still one object. Each object costs
// a 128-bit hash and its place, not its name, so a stream of millions of
// objects is checked in little memory; two identities sharing a hash
// (odds about 2^-100 for a million objects) would be reported as a
// duplicate.
type Identities struct {
	m map[[16]byte]place
}

type place struct{ index, line int32 }

// Add records d, whose Header must have been read (Expand and Identify
// read it), and refuses it when an earlier document had its identity.
// A document without a kind or a name is not recorded: it names no
// object, and its decoder reports the missing field.
func (s *Identities) Add(d *Document) error {
	if d.Header == nil || d.Header.Kind == "" || d.Header.Metadata.Name == "" {
		return nil
	}
	h := d.Header
	k := identityKey(h)
	if s.m == nil {
		s.m = map[[16]byte]place{}
	}
	if first, dup := s.m[k]; dup {
		where := fmt.Sprintf("document %d", first.index)
		if first.line > 0 {
			where += fmt.Sprintf(", line %d", first.line)
		}
		return d.FailAt("metadata.name", fmt.Errorf("metadata.name: %s is listed again (first in %s); the API server holds one object per name", h, where))
	}
	s.m[k] = place{index: int32(d.Index), line: int32(d.Line)}
	return nil
}

// identityKey is the hash Identities keeps for the object h names: FNV-1a
// of 128 bits over the group, kind, namespace and name, each followed by
// a zero byte. It is worked out here rather than through hash/fnv, whose
// Hash and the byte slices written to it are allocated for every object
// read; TestIdentityKey_IsFNV128a holds the two equal.
func identityKey(h *Header) [16]byte {
	s := fnv128a{hi: fnvOffsetHi, lo: fnvOffsetLo}
	for _, part := range [...]string{h.Group(), h.Kind, h.Metadata.Namespace, h.Metadata.Name} {
		s.writeString(part)
		s.writeByte(0)
	}
	var k [16]byte
	binary.BigEndian.PutUint64(k[:8], s.hi)
	binary.BigEndian.PutUint64(k[8:], s.lo)
	return k
}

// The offset basis and prime of 128-bit FNV, as two 64-bit halves.
const (
	fnvOffsetHi   = 0x6c62272e07bb0142
	fnvOffsetLo   = 0x62b821756295c58d
	fnvPrimeLo    = 0x13b
	fnvPrimeShift = 24 // the prime is 2^88 + 0x13b: its high half is 1<<24
)

// fnv128a is the state of an FNV-1a hash of 128 bits.
type fnv128a struct{ hi, lo uint64 }

func (s *fnv128a) writeByte(c byte) {
	s.lo ^= uint64(c)
	// (hi, lo) * (2^88 + 0x13b), modulo 2^128.
	hi, lo := bits.Mul64(fnvPrimeLo, s.lo)
	hi += s.lo<<fnvPrimeShift + fnvPrimeLo*s.hi
	s.hi, s.lo = hi, lo
}

func (s *fnv128a) writeString(t string) {
	for i := 0; i < len(t); i++ {
		s.writeByte(t[i])
	}
}

// Each reads r to its end and hands do every document, the items of a
// List (nested Lists too) one at a time, after refusing one that names an
// object an earlier document named (see Identities). Every error, do's
// included, is returned, joined, up to MaxProblems of them; a problem
// reading the stream (a limit, text that is not YAML) ends it. Both systems' decoders read streams
// through Each, so they count, expand and refuse alike.
func Each(r *Reader, do func(*Document) error) error {
	p := problems{file: r.File}
	var seen Identities
	for {
		d, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			p.add(err)
			break
		}
		p.add(d.ExpandNew(&seen, do))
	}
	return p.err()
}

// EachJSON is Each for documents already split and converted to JSON,
// such as a scenario's objects: raws[i] is document i+1, and an empty or
// null one is passed over, as Reader passes over an empty document. A
// document with a key given twice is refused, as Reader refuses it.
func EachJSON(raws []json.RawMessage, do func(*Document) error) error {
	var p problems
	var seen Identities
	for i, raw := range raws {
		if t := bytes.TrimSpace(raw); len(t) == 0 || bytes.Equal(t, []byte("null")) {
			continue
		}
		d := &Document{Index: i + 1, JSON: raw}
		fe, folded := jsonDuplicate(bytes.TrimSpace(raw), 1)
		if fe != nil {
			fe.line = 0 // the document's own lines, not the input's
			p.add(d.Fail(fe))
			continue
		}
		d.keys = keyStateOf(folded)
		p.add(d.ExpandNew(&seen, do))
	}
	return p.err()
}

// ExpandNew is Expand that first refuses, through seen, a document that
// names an object an earlier one named: what Each does with each
// document of a stream, for a reader that pulls documents one at a time.
func (d *Document) ExpandNew(seen *Identities, do func(*Document) error) error {
	return d.Expand(func(d *Document) error {
		if err := seen.Add(d); err != nil {
			return err
		}
		return do(d)
	})
}

// MaxProblems is how many problems Each and EachJSON return: a stream
// with more goes on being read, so that its reading ends as it would,
// and the rest are counted in one more error. Each problem costs its
// text, so a stream of millions of bad items is not held a second time
// as its errors.
const MaxProblems = 100

// problems gathers what Each and EachJSON return.
type problems struct {
	file string
	errs []error
	more int
}

func (p *problems) add(err error) {
	switch {
	case err == nil:
	case len(p.errs) < MaxProblems:
		p.errs = append(p.errs, err)
	default:
		p.more++
	}
}

func (p *problems) err() error {
	if p.more > 0 {
		p.errs = append(p.errs, &DocumentError{File: p.file,
			Err: fmt.Errorf("%d more problems like these are not shown", p.more)})
	}
	return errors.Join(p.errs...)
}
