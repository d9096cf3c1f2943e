package conditionstest

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

// ProvenanceProblem checks one outcome's provenance against its
// conditions: one entry per condition, in the same order and of the same
// type, naming a rule of the table (ruleIDs), whose evidence names only
// objects present reports as in the snapshot (the zero ObjectRef, the
// evaluation's own inputs, is always allowed). It returns "" when all
// holds, else the first problem.
func ProvenanceProblem(conds []metav1.Condition, prov []conditions.Provenance, ruleIDs map[string]bool, present func(conditions.ObjectRef) bool) string {
	if len(prov) != len(conds) {
		return fmt.Sprintf("%d conditions but %d provenance entries", len(conds), len(prov))
	}
	for i, c := range conds {
		p := prov[i]
		switch {
		case p.Type != c.Type:
			return fmt.Sprintf("provenance[%d] explains %s, the condition is %s", i, p.Type, c.Type)
		case !ruleIDs[p.Rule]:
			return fmt.Sprintf("%s: rule %q is not in the rule table", c.Type, p.Rule)
		case len(p.Evidence) == 0:
			return fmt.Sprintf("%s: rule %s without evidence", c.Type, p.Rule)
		}
		for _, ev := range p.Evidence {
			if ev.Object != (conditions.ObjectRef{}) && !present(ev.Object) {
				return fmt.Sprintf("%s: evidence names %s (uid %q), which the snapshot does not hold", c.Type, ev.Object, ev.Object.UID)
			}
		}
	}
	return ""
}
