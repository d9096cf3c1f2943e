package hostcheck

import "encoding/json"

// pass is the engine's answer for one pass of the host of an adapted
// system over its view: Run over what it could read. The status's
// other fields are left to the other rules: Run's are merged into what
// the object holds, so a host may keep fields of its own beside them.
func (w *adaptedWorld) pass(v PassView) (PassAnswer, error) {
	if len(v.Judged) == 0 {
		return PassAnswer{}, nil
	}
	obs, _ := v.Observed.(json.RawMessage)
	outs, err := w.run(v.Objects, obs, v.Now)
	if err != nil {
		return PassAnswer{}, err
	}
	out := PassAnswer{Writes: map[ObjectKey][]Written{}}
	for k, o := range outs {
		out.Writes[k] = []Written{{Conditions: w.a.status.Vocabulary.Owned(o.Conditions)}}
	}
	return out, nil
}
