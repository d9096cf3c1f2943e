package plugin

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/yaml"

	"github.com/condengine/condengine/explain"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/system"
)

func (e *env) auditCommand() *cobra.Command {
	var allNamespaces bool
	var output string
	cmd := &cobra.Command{
		Use:   "audit [-n NAMESPACE | -A] [-o table|yaml|json]",
		Short: "Print every condition written otherwise than condengine computes it; exit 1 on drift",
		Long: `audit lists the objects of the kinds it knows:
` + kindList(e.systems, false) + `;
computes with condengine the conditions each object is due, and prints
each condition whose written status, reason, message or
observedGeneration differs, followed by the rule and the evidence that
decide the due value (the "why" field with -o yaml|json). Conditions
that depend on inputs a cluster does not hold (a Binding's probe
results) are listed as not judged. It never writes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			write, ok := auditWriters[output]
			if !ok {
				return fmt.Errorf("--output %q is not table, yaml or json", output)
			}
			namespace := ""
			if !allNamespaces {
				ns, _, err := e.flags.ToRawKubeConfigLoader().Namespace()
				if err != nil {
					return err
				}
				namespace = ns
			}
			report, err := e.readAndAudit(cmd, namespace)
			if err != nil {
				return err
			}
			if err := write(cmd.OutOrStdout(), report); err != nil {
				return err
			}
			if report.Drifted > 0 {
				return errDrift
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&allNamespaces, "all-namespaces", "A", false, "audit the objects of every namespace")
	cmd.Flags().StringVarP(&output, "output", "o", "table", "output format: table, yaml or json")
	return cmd
}

// readAndAudit reads the cluster and audits it, reporting the objects of
// namespace ("" for all). Every namespace is read, so that references
// across namespaces resolve as the operators see them; without the right
// to list cluster-wide, the namespace alone is read. The reader's notes
// go to stderr.
func (e *env) readAndAudit(cmd *cobra.Command, namespace string) (Report, error) {
	r, err := e.newReader(e.flags)
	if err != nil {
		return Report{}, err
	}
	in, err := r.read(cmd.Context(), e.systems, "")
	if apierrors.IsForbidden(err) && namespace != "" {
		r.note("cannot list across namespaces; references to other namespaces read as missing")
		in, err = r.read(cmd.Context(), e.systems, namespace)
	}
	if err != nil {
		return Report{}, err
	}
	for _, n := range r.notes {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
	}
	in.now = e.now()
	rep, err := e.audit(in, namespace)
	for _, n := range rep.LeftOut {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
	}
	return rep, err
}

var auditWriters = map[string]func(io.Writer, Report) error{
	"table": writeTable,
	"json": func(w io.Writer, r Report) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	},
	"yaml": func(w io.Writer, r Report) error {
		b, err := yaml.Marshal(r)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	},
}

// writeTable prints one row per drifted condition, each followed by the
// decision behind its due value (indented, as explain prints it), then
// the conditions not judged per object, then a summary line.
func writeTable(w io.Writer, r Report) error {
	if r.Drifted > 0 {
		// The rows are aligned on their own, then the decisions are put
		// between them: a line without tabs would split tabwriter's
		// columns.
		var rows bytes.Buffer
		var why []*explain.Decision
		tw := tabwriter.NewWriter(&rows, 0, 4, 3, ' ', 0)
		fmt.Fprintln(tw, "KIND\tNAMESPACE\tNAME\tCONDITION\tDIFFERS IN\tWRITTEN\tDUE\tDUE MESSAGE")
		why = append(why, nil)
		for _, o := range r.Objects {
			for _, d := range o.Drift {
				msg := ""
				if d.Due != nil {
					msg = d.Due.Message
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", o.Kind, dash(o.Namespace), o.Name, d.Type, differs(d.Written, d.Due),
					d.Written, d.Due, dash(msg))
				why = append(why, d.Why)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for i, row := range strings.SplitAfter(strings.TrimSuffix(rows.String(), "\n"), "\n") {
			if _, err := io.WriteString(w, strings.TrimSuffix(row, "\n")+"\n"); err != nil {
				return err
			}
			if i < len(why) && why[i] != nil {
				if err := why[i].WriteTree(w, "    "); err != nil {
					return err
				}
			}
		}
	}
	var notJudged []string
	for _, o := range r.Objects {
		if len(o.NotJudged) > 0 {
			notJudged = append(notJudged, fmt.Sprintf("  %s %s: %s", o.Kind, manifest.JoinName(o.Namespace, o.Name), strings.Join(o.NotJudged, ", ")))
		}
	}
	if len(notJudged) > 0 {
		if r.Drifted > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, "Not judged (they depend on inputs the cluster does not hold):")
		fmt.Fprintln(w, strings.Join(notJudged, "\n"))
	}
	_, err := fmt.Fprintf(w, "%d objects audited, %d drifted\n", len(r.Objects), r.Drifted)
	return err
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// differs names the fields in which a written condition departs from the
// due one.
func differs(written, due *Condition) string {
	switch {
	case written == nil:
		return "missing"
	case due == nil:
		return "not due"
	}
	var fields []string
	if written.Status != due.Status {
		fields = append(fields, "status")
	}
	if written.Reason != due.Reason {
		fields = append(fields, "reason")
	}
	if written.Message != due.Message {
		fields = append(fields, "message")
	}
	if written.ObservedGeneration != due.ObservedGeneration {
		fields = append(fields, "observedGeneration")
	}
	return strings.Join(fields, ",")
}

// kindList names the kinds of systems by group, as help says them:
// "Binding, AgentBackend and ChatConnection (agentkourier.dev)", the
// groups apart by semicolons; withConditions keeps only the kinds with
// conditions.
func kindList(systems []*system.System, withConditions bool) string {
	var groups []string
	byGroup := map[string][]string{}
	for _, s := range systems {
		for _, k := range s.Kinds {
			if withConditions && k.Vocabulary == nil {
				continue
			}
			if _, ok := byGroup[k.Group]; !ok {
				groups = append(groups, k.Group)
			}
			byGroup[k.Group] = append(byGroup[k.Group], k.Kind)
		}
	}
	parts := make([]string, 0, len(groups))
	for _, g := range groups {
		parts = append(parts, andList(byGroup[g])+" ("+cmp.Or(g, "core")+")")
	}
	return strings.Join(parts, "; ")
}

// andList is "a, b and c".
func andList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " and " + values[len(values)-1]
}
