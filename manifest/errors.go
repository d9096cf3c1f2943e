package manifest

import (
	"errors"
	"fmt"
	"strings"
)

// DocumentError is a manifest that could not be read or used, located so
// that a reader can find it in the file: the file's name, the document
// (counting from 1, empty documents included, as an editor would count
// the --- sections), the item of a List, the line, and the object's
// identity when it is known. Both systems' decoders and the command
// report every problem with an input as a DocumentError, so no caller
// needs to parse error text.
type DocumentError struct {
	// File is the input's name, "" when the caller gave none.
	File string
	// Index is the document's number in the stream, counting from 1; 0
	// when the problem is the stream's, not one document's.
	Index int
	// Item is the place inside a List document, such as "items[2]" or
	// "items[2].items[0]"; "" for a document that is not a List item.
	Item string
	// Line is the line of the input the problem is on, counting from 1;
	// 0 when it is not known.
	Line int
	// Kind, Namespace and Name identify the object, when they could be
	// read.
	Kind      string
	Namespace string
	Name      string
	// Err is the problem, in the form "field.path: what is wrong" when a
	// field is to blame.
	Err error
}

// Error reads "FILE: document N, items[i] (Kind ns/name), line L: problem",
// each part present when it is known.
func (e *DocumentError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File + ": ")
	}
	if e.Index > 0 {
		fmt.Fprintf(&b, "document %d", e.Index)
		if e.Item != "" {
			b.WriteString(", " + e.Item)
		}
		if e.Kind != "" {
			b.WriteString(" (" + e.Kind)
			if e.Name != "" {
				b.WriteString(" " + JoinName(e.Namespace, e.Name))
			}
			b.WriteString(")")
		}
		if e.Line > 0 {
			fmt.Fprintf(&b, ", line %d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap gives the cause, so errors.Is finds ErrLimit or a decoder's own
// sentinel errors.
func (e *DocumentError) Unwrap() error { return e.Err }

// Fail wraps err in a DocumentError carrying d's place (file, index,
// item, line) and identity. When err is a field error whose line is
// known (from Unmarshal), that line replaces the document's first line.
func (d *Document) Fail(err error) *DocumentError {
	de := &DocumentError{File: d.File, Index: d.Index, Item: d.Item, Line: d.Line, Err: err}
	if d.Header != nil {
		de.Kind, de.Namespace, de.Name = d.Header.Kind, d.Header.Metadata.Namespace, d.Header.Metadata.Name
	}
	var fe *fieldError
	if errors.As(err, &fe) && fe.line > 0 {
		de.Line = fe.line
	}
	return de
}

// Errors returns every DocumentError inside err, a joined error of them
// or a single one, in order.
func Errors(err error) []*DocumentError {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []*DocumentError
		for _, e := range j.Unwrap() {
			out = append(out, Errors(e)...)
		}
		return out
	}
	var de *DocumentError
	if errors.As(err, &de) {
		return []*DocumentError{de}
	}
	return nil
}

// FailAt is Fail for a problem with the field at path (such as
// "metadata.name" or "status"): the error carries the line that field is
// on when it can be found, the document's first line otherwise.
func (d *Document) FailAt(path string, err error) *DocumentError {
	de := d.Fail(err)
	if line := d.lineOf(path); line > 0 {
		de.Line = line
	}
	return de
}
