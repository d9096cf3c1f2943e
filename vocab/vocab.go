package vocab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/condengine/condengine/conditions"
)

// Markdown writes the page of one kind's vocabulary: its condition
// types in the order they are written and, per type, a table of its
// reasons with their meaning, what to do, whether they are terminal and
// the rules of rules that may write them.
func Markdown(w io.Writer, v *conditions.Vocabulary, rules []conditions.Rule) error {
	ew := &errWriter{w: w}
	ew.printf("# %s conditions\n\n", v.Kind())
	ew.printf("API version `%s`. Condition types, in the order they are written: %s.\n", v.APIVersion(), strings.Join(typeNames(v), ", "))
	ew.printf("No other type is ours; a pair not listed below is invalid.\n")
	for _, t := range v.Types() {
		ew.printf("\n## %s\n\n", t.Name)
		if t.Meaning != "" {
			ew.printf("%s\n\n", Cell(t.Meaning))
		}
		if t.Required {
			ew.printf("Always present once the kind carries any condition.\n\n")
		} else {
			ew.printf("Present only in some states.\n\n")
		}
		ew.printf("| Status | Reason | Meaning | What to do | Transient or terminal | Rules |\n")
		ew.printf("|---|---|---|---|---|---|\n")
		for _, r := range t.Reasons {
			kind := "transient"
			if r.Terminal {
				kind = "terminal"
			}
			ids := RulesFor(rules, v.Kind(), t.Name, r.Status, r.Reason)
			for i := range ids {
				ids[i] = "`" + ids[i] + "`"
			}
			ew.printf("| %s | `%s` | %s | %s | %s | %s |\n", r.Status, r.Reason, Cell(r.Meaning), Cell(r.Action), kind, strings.Join(ids, ", "))
		}
	}
	return ew.err
}

// Docs renders a docs directory of vocabularies, keyed by file name: the
// Markdown page of each kind, named after the lower-case kind, and
// README.md, an index of the pages with each kind's API version and
// condition types, note below its title (a line on how the files are
// made, say; "" for none).
func Docs(vs []*conditions.Vocabulary, rules []conditions.Rule, note string) map[string][]byte {
	files := make(map[string][]byte, len(vs)+1)
	var index bytes.Buffer
	index.WriteString("# Condition vocabularies\n\n")
	index.WriteString(note)
	index.WriteString("| Kind | API version | Condition types, in the order they are written |\n|---|---|---|\n")
	for _, v := range vs {
		name := strings.ToLower(v.Kind()) + ".md"
		var b bytes.Buffer
		_ = Markdown(&b, v, rules) // a bytes.Buffer does not fail
		files[name] = b.Bytes()
		fmt.Fprintf(&index, "| [%s](%s) | `%s` | %s |\n", v.Kind(), name, v.APIVersion(), strings.Join(typeNames(v), ", "))
	}
	files["README.md"] = index.Bytes()
	return files
}

// WriteDocs writes the files of Docs into dir, making it if needed.
func WriteDocs(dir string, vs []*conditions.Vocabulary, rules []conditions.Rule, note string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range Docs(vs, rules, note) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func typeNames(v *conditions.Vocabulary) []string {
	ts := v.Types()
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = "`" + t.Name + "`"
	}
	return out
}

// Cell makes text safe inside a markdown table cell: one line, every
// run of white space one space, pipes escaped.
func Cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// The JSON shape of JSON: a list of vocabularies, each with its types,
// each with its reasons.
type jsonReason struct {
	Status   string `json:"status"`
	Reason   string `json:"reason"`
	Meaning  string `json:"meaning"`
	Action   string `json:"action"`
	Terminal bool   `json:"terminal"`
}

type jsonType struct {
	Type     string       `json:"type"`
	Meaning  string       `json:"meaning"`
	Required bool         `json:"required"`
	Reasons  []jsonReason `json:"reasons"`
}

type jsonVocabulary struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Types      []jsonType `json:"types"`
}

// JSON writes vs as one indented JSON array: per kind its apiVersion,
// kind and types, per type its meaning, whether it is required and its
// reasons (status, reason, meaning, action, terminal), all in the
// tables' order.
func JSON(w io.Writer, vs []*conditions.Vocabulary) error {
	out := make([]jsonVocabulary, 0, len(vs))
	for _, v := range vs {
		jv := jsonVocabulary{APIVersion: v.APIVersion(), Kind: v.Kind(), Types: []jsonType{}}
		for _, t := range v.Types() {
			jt := jsonType{Type: t.Name, Meaning: t.Meaning, Required: t.Required, Reasons: []jsonReason{}}
			for _, r := range t.Reasons {
				jt.Reasons = append(jt.Reasons, jsonReason{string(r.Status), r.Reason, r.Meaning, r.Action, r.Terminal})
			}
			jv.Types = append(jv.Types, jt)
		}
		out = append(out, jv)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// errWriter keeps the first write error and skips writing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
