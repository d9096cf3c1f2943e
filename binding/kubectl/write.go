package kubectl

import (
	"io"
	"time"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// Write prints Get's output to w a line at a time, so that the memory it
// needs beyond the Bindings is one line and four bytes per Binding, not
// the whole table (on 100,000 Bindings Get holds about 30 MB of rows and
// text at once). It returns the first error of w.
func Write(w io.Writer, bindings []akv1.Binding, now time.Time) error {
	ew := &errWriter{w: w}
	pos := order(bindings)
	writeTable(ew, len(pos), func(k int) Row { return row(&bindings[pos[k]], now) })
	return ew.err
}

// errWriter keeps the first error of w and writes nothing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
