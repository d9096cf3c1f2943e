package writeplan

import (
	"encoding/json"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// soleApplyOwned returns the condition types whose entries in
// status.conditions only our status apply owns: the ones a server-side
// apply that leaves them out removes. A type named by any other entry
// (another manager, an update of ours, an apply of ours to the object
// rather than its status) is not in it, nor is a type no entry names.
func soleApplyOwned(entries []metav1.ManagedFieldsEntry, manager string) map[string]bool {
	ours := map[string]bool{}
	others := map[string]bool{}
	for _, e := range entries {
		mine := e.Manager == manager && e.Operation == metav1.ManagedFieldsOperationApply && e.Subresource == SubresourceStatus
		for _, t := range conditionKeys(e) {
			if mine {
				ours[t] = true
			} else {
				others[t] = true
			}
		}
	}
	for t := range others {
		delete(ours, t)
	}
	return ours
}

// conditionKeys returns the condition types an entry names under
// status.conditions. An entry it cannot read (no fieldsV1 included: its
// raw bytes are then empty) names none; For is then cautious, since a
// type no entry is read to own solely gets a removal.
func conditionKeys(e metav1.ManagedFieldsEntry) []string {
	var fields struct {
		Status struct {
			Conditions map[string]json.RawMessage `json:"f:conditions"`
		} `json:"f:status"`
	}
	if json.Unmarshal(e.FieldsV1.GetRawBytes(), &fields) != nil {
		return nil
	}
	var out []string
	for key := range fields.Status.Conditions {
		rest, ok := strings.CutPrefix(key, "k:")
		if !ok {
			continue
		}
		var k struct {
			Type string `json:"type"`
		}
		if json.Unmarshal([]byte(rest), &k) == nil && k.Type != "" {
			out = append(out, k.Type)
		}
	}
	return out
}
