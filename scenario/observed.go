package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"

	"github.com/condengine/condengine/manifest"
)

// DecodeObserved reads the file's observed block into v, a pointer to
// the system's own type for it, as strictly as the rest of a scenario is
// read: a key v has no place for, a value of the wrong type and two keys
// that differ only in case are errors that name the field's path from
// the top of the file ("observed.jobs[1].state: unknown field") and,
// for a file read from text whose block is unchanged since, its line. A
// file without the block, or with observed: null, leaves v as it is.
func (f *File) DecodeObserved(v any) error {
	t := bytes.TrimSpace(f.Observed)
	if len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return nil
	}
	if t[0] != '{' {
		return fmt.Errorf("observed: the block holds %s, not a mapping of keys", jsonKind(t))
	}
	r := manifest.NewReader(bytes.NewReader(t))
	d, err := r.Next()
	if err != nil {
		return fmt.Errorf("observed: %w", err)
	}
	err = d.Unmarshal(v)
	if err == nil {
		return nil
	}
	// The reader's error places the field in the block alone; it is
	// placed again in the file, by its path from the file's top.
	var de *manifest.DocumentError
	if errors.As(err, &de) && de.Err != nil {
		err = de.Err
	}
	path, text := "observed", "observed: "+err.Error()
	if m := fieldPath.FindStringSubmatch(err.Error()); m != nil {
		path, text = "observed."+m[1], "observed."+err.Error()
	}
	inner := fmt.Errorf("scenario: %s", text)
	if f.source != nil && bytes.Equal(f.Observed, f.observed) {
		return f.source.FailAt(path, inner)
	}
	if f.Path != "" {
		return fmt.Errorf("%s: %w", f.Path, inner)
	}
	return inner
}

// fieldPath is the field path a decoding error begins with, before its
// colon ("spec.items[2].name: unknown field").
var fieldPath = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9]*(?:\[\d+\])*(?:\.[A-Za-z][A-Za-z0-9]*(?:\[\d+\])*)*): `)
