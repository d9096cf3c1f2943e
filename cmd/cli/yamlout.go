package cli

import (
	"bufio"
	"fmt"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/system"
)

// writeObjectYAML writes one item of the List, an object whose status is
// its conditions, already indented as a sequence entry, in the layout
// sigs.k8s.io/yaml gives (keys sorted, two-space indent) without its
// JSON round trip, which costs ten times the evaluation on a large
// stream. The tests check the result parses to the same objects as the
// JSON output.
func writeObjectYAML(w *bufio.Writer, o *system.Object) {
	w.WriteString("- apiVersion: ")
	yamlString(w, o.APIVersion)
	w.WriteString("  kind: ")
	yamlString(w, o.Kind)
	w.WriteString("  metadata:\n")
	if o.Generation != 0 {
		w.WriteString("    generation: ")
		writeInt(w, o.Generation)
	}
	yamlKV(w, "    ", "name", o.Name)
	if o.Namespace != "" {
		yamlKV(w, "    ", "namespace", o.Namespace)
	}
	if o.UID != "" {
		yamlKV(w, "    ", "uid", string(o.UID))
	}
	if len(o.Conditions) == 0 {
		w.WriteString("  status: {}\n")
		return
	}
	w.WriteString("  status:\n    conditions:\n")
	for i := range o.Conditions {
		writeConditionYAML(w, &o.Conditions[i])
	}
}

func writeConditionYAML(w *bufio.Writer, c *metav1.Condition) {
	first := true
	key := func(k string) {
		if first {
			w.WriteString("    - ")
			first = false
		} else {
			w.WriteString("      ")
		}
		w.WriteString(k)
		w.WriteString(": ")
	}
	if !c.LastTransitionTime.IsZero() {
		key("lastTransitionTime")
		w.WriteByte('"')
		_, _ = w.Write(c.LastTransitionTime.UTC().AppendFormat(w.AvailableBuffer(), time.RFC3339))
		w.WriteString("\"\n")
	}
	key("message")
	yamlString(w, c.Message)
	key("observedGeneration")
	writeInt(w, c.ObservedGeneration)
	key("reason")
	yamlString(w, c.Reason)
	key("status")
	yamlString(w, string(c.Status))
	key("type")
	yamlString(w, c.Type)
}

// writeInt writes n and a line end, in the writer's own buffer.
func writeInt(w *bufio.Writer, n int64) {
	_, _ = w.Write(append(strconv.AppendInt(w.AvailableBuffer(), n, 10), '\n'))
}

func yamlKV(w *bufio.Writer, indent, k, v string) {
	w.WriteString(indent)
	w.WriteString(k)
	w.WriteString(": ")
	yamlString(w, v)
}

// isPlainSafe reports whether s is a letter or underscore followed by
// letters, digits and _.:/- only (^[A-Za-z_][A-Za-z0-9_.:/-]*$): among
// the strings YAML reads back as the same string when written unquoted.
// Anything else is written quoted. A regular expression cost a tenth of
// eval's CPU on a large stream, every value written going through it;
// TestIsPlainSafe_IsTheExpression holds the two equal.
func isPlainSafe(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_':
		case i > 0 && ('0' <= c && c <= '9' || c == '.' || c == ':' || c == '/' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// yamlWords are the plain scalars YAML 1.1 reads as something other than
// a string.
var yamlWords = map[string]bool{
	"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true,
	"y": true, "n": true, "null": true, "True": true, "False": true, "Yes": true,
	"No": true, "On": true, "Off": true, "Y": true, "N": true, "Null": true,
	"TRUE": true, "FALSE": true, "YES": true, "NO": true, "ON": true, "OFF": true, "NULL": true,
}

func yamlString(w *bufio.Writer, s string) {
	if s != "" && len(s) < 256 && isPlainSafe(s) && !yamlWords[s] && s[len(s)-1] != ':' {
		w.WriteString(s)
		w.WriteByte('\n')
		return
	}
	if s == "" {
		w.WriteString("\"\"\n")
		return
	}
	// A double-quoted scalar with YAML's own escapes: JSON's quoting would
	// leave DEL and other characters YAML refuses to read.
	w.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			w.WriteByte('\\')
			w.WriteRune(r)
		case r == utf8.RuneError:
			w.WriteString(`\ufffd`)
		case unicode.IsPrint(r) && r != '\u00a0':
			w.WriteRune(r)
		case r < 0x10000:
			fmt.Fprintf(w, `\u%04x`, r)
		default:
			fmt.Fprintf(w, `\U%08x`, r)
		}
	}
	w.WriteString("\"\n")
}
