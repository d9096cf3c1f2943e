package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/condengine/condengine/internal/article"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/redact"
)

// MaxFileBytes bounds a scenario file; larger ones are refused rather than
// read into memory. A scenario is one document, so its bound is the
// manifest reader's, the same for `condengine check` and `eval`.
const MaxFileBytes = manifest.MaxDocumentBytes

// Parse decodes one scenario from YAML or JSON and validates it (see
// File.Validate). It reads data as Load reads a file, so unknown keys
// and keys given twice are errors (a misspelt expectation, or a second
// system: key, cannot pass silently), each naming its line. The name,
// system and now keys are required.
func Parse(data []byte) (*File, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("scenario is %d bytes, more than %d", len(data), MaxFileBytes)
	}
	r := manifest.NewReader(bytes.NewReader(data))
	d, err := r.Next()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("scenario: the file holds %s, not a mapping of keys (name, system, now, objects, expect, ...)", jsonKind(nil))
	}
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	return FromDocument(r, d)
}

// decode decodes and validates the scenario in d.
func decode(d *manifest.Document) (*File, error) {
	if t := bytes.TrimSpace(d.JSON); len(t) == 0 || t[0] != '{' {
		return nil, d.Fail(fmt.Errorf("scenario: the file holds %s, not a mapping of keys (name, system, now, objects, expect, ...)", jsonKind(t)))
	}
	var f File
	if err := d.Unmarshal(&f); err != nil {
		return nil, err
	}
	if f.Now.IsZero() {
		if err := zeroNow(d.JSON); err != nil {
			return nil, d.FailAt("now", fmt.Errorf("scenario: %w", err))
		}
	}
	if err := f.Validate(); err != nil {
		path := ""
		if m := leadingPath.FindStringSubmatch(err.Error()); m != nil {
			path = m[1]
		}
		return nil, d.FailAt(path, fmt.Errorf("scenario: %w", err))
	}
	if len(f.Observed) > 0 {
		// The system reads the block later (DecodeObserved), after the
		// reader is gone: the document is kept to place its fields.
		f.source, f.observed = d.Detach(), f.Observed
	}
	return &f, nil
}

// zeroNow words the error for a now that is given and reads as no
// instant: null, or the zero time, which Validate cannot tell from a now
// left out. It is nil when the file has no now.
func zeroNow(raw []byte) error {
	var h struct {
		Now json.RawMessage `json:"now"`
	}
	if json.Unmarshal(raw, &h) != nil || h.Now == nil {
		return nil
	}
	given := redact.Clip(string(bytes.TrimSpace(h.Now)), 64)
	if given == "null" {
		return errors.New("now: null is not an instant; give the instant of the evaluation in RFC 3339, such as 2026-11-30T10:00:00Z")
	}
	return fmt.Errorf("now: %s is the zero time, which stands for no instant; give the instant of the evaluation, such as 2026-11-30T10:00:00Z", given)
}

// leadingPath is the field path a Validate error begins with
// ("probes[0].channel.http: ...", "system \"x\" is not ..."), so the
// error can carry that field's line.
var leadingPath = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9]*(?:\[\d+\])*(?:\.[A-Za-z][A-Za-z0-9]*(?:\[\d+\])*)*)[: ]`)

// Load reads and parses one scenario file, with the manifest reader
// `condengine eval` uses, so both accept and refuse the same files.
func Load(path string) (*File, error) {
	in, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return read(in, path)
}

// read parses the one scenario document of in, a file named name, the way
// Load and LoadFS both do: through the manifest reader and FromDocument.
func read(in io.Reader, name string) (*File, error) {
	r := manifest.NewReader(in)
	r.File = name
	d, err := r.Next()
	if errors.Is(err, io.EOF) {
		return nil, &manifest.DocumentError{File: name, Err: errors.New("no documents")}
	}
	if err != nil {
		return nil, err
	}
	return FromDocument(r, d)
}

// FromDocument parses the scenario in d, the first document r read, and
// makes sure r holds nothing after it: a scenario file is one document,
// and a broken or extra document after it is an error.
func FromDocument(r *manifest.Reader, d *manifest.Document) (*File, error) {
	if kind := manifestKind(d.JSON); kind != "" {
		return nil, d.Fail(fmt.Errorf("%w (%s), not a scenario", ErrManifest, article.A(kind)))
	}
	next, err := r.Next()
	if err == nil {
		return nil, next.Fail(errors.New("a scenario file holds one document"))
	}
	if !errors.Is(err, io.EOF) {
		return nil, err
	}
	f, err := decode(d)
	var de *manifest.DocumentError
	if err != nil && !errors.As(err, &de) && d.File != "" {
		return nil, fmt.Errorf("%s: %w", d.File, err)
	}
	if err != nil {
		return nil, err
	}
	f.Path = d.File
	return f, nil
}

// ErrManifest is the error Load and LoadFS return, wrapped, for a file
// that holds Kubernetes objects (a document with apiVersion and kind)
// rather than a scenario, so a command can point to one that evaluates
// manifests.
var ErrManifest = errors.New("the file holds Kubernetes manifests")

// manifestKind is the kind of raw when it is a Kubernetes object, which no
// scenario is (a scenario has no apiVersion or kind key); "" otherwise.
func manifestKind(raw []byte) string {
	var h struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if json.Unmarshal(raw, &h) != nil || h.APIVersion == "" {
		return ""
	}
	return h.Kind
}

// LoadFS reads and parses one scenario file of fsys, as Load reads one of
// the disk; the File's Path is its path within fsys.
func LoadFS(fsys fs.FS, path string) (*File, error) {
	in, err := fsys.Open(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return read(in, path)
}

// PathsFS lists every .yaml and .yml file of fsys, in lexical order of
// their paths.
func PathsFS(fsys fs.FS) ([]string, error) {
	var found []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			found = append(found, p)
		}
		return nil
	})
	slices.Sort(found)
	return found, err
}

// Paths expands files and directories into the scenario files they hold:
// every .yaml and .yml file below a directory, in lexical order. Files
// named directly are kept whatever their extension.
func Paths(args ...string) ([]string, error) {
	var out []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, a)
			continue
		}
		found, err := PathsFS(os.DirFS(a))
		if err != nil {
			return nil, err
		}
		for i, p := range found {
			found[i] = filepath.Join(a, filepath.FromSlash(p))
		}
		out = append(out, found...)
	}
	return out, nil
}

// jsonKind names the kind of JSON value t begins, in words.
func jsonKind(t []byte) string {
	switch {
	case len(t) == 0 || bytes.Equal(t, []byte("null")):
		return "nothing"
	case t[0] == '"':
		return "a single string"
	case t[0] == '[':
		return "a list"
	case t[0] == 't' || t[0] == 'f':
		return "a single true or false"
	}
	return "a single number"
}
