package explain

import "github.com/condengine/condengine/scenario"

// FromOutcomes pairs the computed conditions of each outcome a runner
// explained with their provenance and the rule sentences of sentences,
// in the outcomes' order: the outcomes of a system's Run with explain
// set (system.System.Run), which carry the computed list in Computed and
// one provenance per condition. An outcome whose Computed is nil is left
// out: the runner answered nothing for it (another broker's Binding), or
// its kind has no conditions of the system's (a CostJob).
func FromOutcomes(outs []scenario.Outcome, sentences map[string]string) []Object {
	out := make([]Object, 0, len(outs))
	for _, o := range outs {
		if o.Computed == nil {
			continue
		}
		out = append(out, NewObject(o.Kind, o.Namespace, o.Name, o.Computed, o.Provenance, sentences))
	}
	return out
}
