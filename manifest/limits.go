package manifest

import (
	"errors"
	"fmt"
)

// The limits every reader of manifests enforces while it reads, the same
// for `condengine eval`, `condengine check` and the library decoders
// (binding.Decode, finops.Decode). They are checked before the bytes are
// kept, so no input, not even an endless one, makes a reader hold more
// than one document of MaxDocumentBytes.
const (
	// MaxDocumentBytes bounds one document of a stream (the text between
	// two --- lines), and so one scenario file.
	MaxDocumentBytes = 64 << 20
	// MaxStreamBytes bounds a whole stream: a 200 MB stream of Bindings
	// is read, an endless one is stopped here.
	MaxStreamBytes = 1 << 30
)

// Limits are the bounds a Reader enforces. A zero field takes the
// package's default (MaxDocumentBytes, MaxStreamBytes); tests and hosts
// with tighter budgets set their own.
type Limits struct {
	Document int64
	Stream   int64
}

func (l Limits) withDefaults() Limits {
	if l.Document <= 0 {
		l.Document = MaxDocumentBytes
	}
	if l.Stream <= 0 {
		l.Stream = MaxStreamBytes
	}
	return l
}

// ErrLimit is matched by every LimitError: errors.Is(err, ErrLimit)
// tells input refused for its size from input refused for its content.
var ErrLimit = errors.New("input larger than a limit")

// LimitError is input that went past one of the limits. It is returned
// inside a DocumentError, which names the file and the document.
type LimitError struct {
	// Limit is the name of the limit: "MaxDocumentBytes",
	// "MaxStreamBytes" or "MaxListDepth".
	Limit string
	// Bytes is the limit's value: bytes, or levels for MaxListDepth.
	Bytes int64
}

func (e *LimitError) Error() string {
	if e.Limit == "MaxListDepth" {
		return fmt.Sprintf("items: Lists are nested more than %s (%d) deep; flatten the input", e.Limit, e.Bytes)
	}
	what := "document"
	if e.Limit == "MaxStreamBytes" {
		what = "stream"
	}
	return fmt.Sprintf("the %s is larger than %s (%s); split the input", what, e.Limit, size(e.Bytes))
}

// Is makes errors.Is(err, ErrLimit) true.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// size prints a byte count the way the limits are written.
func size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
