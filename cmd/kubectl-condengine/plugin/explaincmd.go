package plugin

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/explain"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/system"
)

func (e *env) explainCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "explain KIND NAME|KIND/NAME|KIND NAMESPACE/NAME [-n NAMESPACE] [-o tree|json]",
		Short: "Print, per condition of one object, the rule and the evidence that decide its due value",
		Long: `explain reads the cluster as audit does, computes with condengine the
conditions the named object is due, an object of a kind with conditions:
` + kindList(e.systems, true) + `;
and prints per condition the rule that decided it and the evidence it read
(the objects, their fields and values), as a tree or as JSON. For Ready it
names the condition Ready was derived from.

A cluster does not hold every input an operator uses: a Binding's probe
results (BackendReachable, ChannelJoined, and so Ready for an accepted
Binding), the charge collection run (a Subscription's CostsResolved).
Such conditions say so under "missing input"; those the cluster cannot
judge are shown as written, with no rule. Evidence is raw: it may name
objects of other namespaces. It never writes.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			write := map[string]func(io.Writer, []explain.Object) error{"tree": explain.WriteTree, "json": explain.WriteJSON}[output]
			if write == nil {
				return fmt.Errorf("--output %q is not tree or json", output)
			}
			if len(args) == 1 {
				// KIND/NAME, as kubectl get takes it.
				k, n, ok := strings.Cut(args[0], "/")
				if !ok || k == "" || n == "" || strings.Contains(n, "/") {
					return fmt.Errorf("name the object as KIND NAME or KIND/NAME, not %q", args[0])
				}
				args = []string{k, n}
			}
			k, err := system.ResolveKind(args[0], e.systems...)
			if err != nil {
				return err
			}
			kind := k.Kind
			namespace, _, err := e.flags.ToRawKubeConfigLoader().Namespace()
			if err != nil {
				return err
			}
			name := args[1]
			if ns, n, ok := strings.Cut(name, "/"); ok {
				// NAMESPACE/NAME, as condengine explain takes it.
				if given := *e.flags.Namespace; given != "" && given != ns {
					return fmt.Errorf("%q names namespace %s, -n says %s", name, ns, given)
				}
				if ns == "" || n == "" || strings.Contains(n, "/") {
					return fmt.Errorf("name the object as NAME or NAMESPACE/NAME, not %q", name)
				}
				namespace, name = ns, n
			}
			report, err := e.readAndAudit(cmd, namespace)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(report.Objects, func(o ObjectReport) bool {
				return o.Kind == kind && o.Namespace == namespace && o.Name == name
			})
			if i < 0 {
				return fmt.Errorf("no %s %s in the cluster", kind, manifest.JoinName(namespace, name))
			}
			o := report.Objects[i]
			for _, d := range o.Drift {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s is written %s, due %s (kubectl condengine audit shows the drift)\n", d.Type, d.Written, d.Due)
			}
			return write(cmd.OutOrStdout(), []explain.Object{liveExplanation(o)})
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "tree", "output format: tree or json")
	return cmd
}

// liveExplanation is the object's due conditions with their decisions,
// except those the cluster cannot judge: these are shown as written
// (with an empty status when not written), with what they depend on that
// the cluster does not hold (system.Cluster.Unjudged), and no rule.
func liveExplanation(o ObjectReport) explain.Object {
	x := o.due
	x.Conditions = slices.Clone(x.Conditions)
	for _, t := range o.NotJudged {
		c := explain.Condition{Type: t, Decision: explain.Decision{Missing: o.unjudged[o.Kind+"/"+t]}}
		if c.Missing == "" {
			c.Missing = "an input a cluster does not hold; not judged, shown as written"
		}
		if w := conditions.Find(o.written, t); w != nil {
			c.Status, c.Reason, c.ObservedGeneration = w.Status, w.Reason, w.ObservedGeneration
		}
		if d := x.Find(t); d != nil {
			*d = c
		} else {
			x.Conditions = append(x.Conditions, c)
		}
	}
	return x
}
