package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/condengine/condengine/scenario"
)

// boundaries pushes a generated snapshot toward the cases the project's
// generators rarely draw: every HTTP class of a card fetch, three and
// more claims of one channel, claims made at the same second in
// different namespaces, same-named objects in other namespaces, messages
// of 500 to 1,100 bytes with multibyte text where they are cut,
// generations at 2^53+1 and 2^63-1, and deletions before now. It draws
// from its own source seeded by seed, so a snapshot stays reproducible;
// a third of the seeds are left as the generators drew them. f is
// changed in place.
func boundaries(f *scenario.File, seed int) {
	if seed%3 == 0 {
		return
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x636f6e666f726d)) // "conform"
	objs := decodeObjects(f.Objects)
	switch f.System {
	case "binding":
		if r.IntN(3) == 0 {
			healthyProbes(f, r)
		} else {
			httpClasses(f, r)
		}
		more := r.IntN(2) == 0
		if more {
			objs = moreClaimants(objs, r)
		}
		if more || r.IntN(2) == 0 {
			sameSecond(objs)
		}
		if r.IntN(3) == 0 {
			objs = sameNameElsewhere(objs, "AgentBackend", r)
		}
		if r.IntN(3) == 0 {
			longText(objs, r)
		}
		if r.IntN(3) == 0 {
			memoryAhead(f, objs, r)
		}
	case "finops":
		deletedBefore(objs, f.Now.Time, r)
		if r.IntN(3) == 0 {
			failedRead(f, objs, r)
		}
		if r.IntN(3) == 0 {
			carriedSubscriptionConditions(f, objs, r)
		}
		if r.IntN(3) == 0 {
			readyDependent(objs, r)
		}
		deletingOffering(f, objs, r)
		if r.IntN(2) == 0 {
			objs = goneUnderActive(objs, r)
		}
	}
	if r.IntN(4) == 0 {
		conditionAhead(objs, r)
	}
	if r.IntN(4) == 0 {
		foreignCondition(objs, f.Now.Time, r)
	}
	if r.IntN(5) == 0 {
		extremeGeneration(objs, r)
	}
	f.Objects = encodeObjects(objs, f.Objects)
}

func decodeObjects(raws []json.RawMessage) []map[string]any {
	out := make([]map[string]any, 0, len(raws))
	for _, raw := range raws {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) != nil {
			m = nil
		}
		out = append(out, m)
	}
	return out
}

// encodeObjects writes objs back; an object that did not decode keeps
// its raw form (the first len(raws) entries match raws).
func encodeObjects(objs []map[string]any, raws []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, 0, len(objs))
	for i, m := range objs {
		if m != nil && m[dropped] != nil {
			continue
		}
		b, err := json.Marshal(m)
		if m == nil || err != nil {
			if i < len(raws) {
				out = append(out, raws[i])
			}
			continue
		}
		out = append(out, b)
	}
	return out
}

// dig is the value at path in a decoded object, nil where the path
// ends early or crosses a value that is not an object.
func dig(m map[string]any, path ...string) any {
	v, _, _ := unstructured.NestedFieldNoCopy(m, path...)
	return v
}

func text(v any) string { s, _ := v.(string); return s }

// httpClasses gives most card fetches that got an HTTP answer a status
// of another class; 401, 403, 404 and 410, whose reasons are rare in
// the generators, come up more often than the rest.
func httpClasses(f *scenario.File, r *rand.Rand) {
	statuses := []int{200, 204, 301, 400, 401, 403, 403, 403, 404, 408, 410, 425, 429, 500, 502, 503}
	for i := range f.Probes {
		b := f.Probes[i].Backend
		if b == nil || b.HTTP == 0 {
			continue
		}
		if r.IntN(4) != 0 {
			b.HTTP = statuses[r.IntN(len(statuses))]
		}
	}
}

// sameSecond makes every claim of a channel that several Bindings claim
// as old as the oldest of them, so the order falls to namespace and name.
func sameSecond(objs []map[string]any) {
	oldest := map[string]string{}
	for _, m := range objs {
		if m == nil || m["kind"] != "Binding" {
			continue
		}
		ch, ts := text(dig(m, "spec", "chat", "channel")), text(dig(m, "metadata", "creationTimestamp"))
		if ch == "" || ts == "" {
			continue
		}
		if o, ok := oldest[ch]; !ok || ts < o {
			oldest[ch] = ts
		}
	}
	for _, m := range objs {
		if m == nil || m["kind"] != "Binding" {
			continue
		}
		if o, ok := oldest[text(dig(m, "spec", "chat", "channel"))]; ok {
			if md, ok := m["metadata"].(map[string]any); ok && md["creationTimestamp"] != nil {
				md["creationTimestamp"] = o
			}
		}
	}
}

// copyAs is a deep copy of m under another namespace, name and uid.
func copyAs(m map[string]any, ns, name string) map[string]any {
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var c map[string]any
	if dec.Decode(&c) != nil {
		return nil
	}
	md, ok := c["metadata"].(map[string]any)
	if !ok {
		return nil
	}
	md["namespace"], md["name"] = ns, name
	md["uid"] = fmt.Sprintf("%s-%s-%s", text(md["uid"]), ns, name)
	return c
}

// moreClaimants copies a Binding into two other namespaces, claiming the
// same channel at the same second.
func moreClaimants(objs []map[string]any, r *rand.Rand) []map[string]any {
	var bindings []map[string]any
	for _, m := range objs {
		if m != nil && m["kind"] == "Binding" && text(dig(m, "metadata", "name")) != "" {
			bindings = append(bindings, m)
		}
	}
	if len(bindings) == 0 {
		return objs
	}
	b := bindings[r.IntN(len(bindings))]
	name := text(dig(b, "metadata", "name"))
	// Names that sort against their namespaces: a0-… in team-y, z0-… in
	// team-0, so an order that skips a field shows.
	// The copies name the original's connection and backend in its
	// namespace, and every allow-list lets their namespaces in, so they
	// claim the channel.
	home := text(dig(b, "metadata", "namespace"))
	for _, c := range []map[string]any{copyAs(b, "team-y", "a0-"+name), copyAs(b, "team-0", "z0-"+name)} {
		if c == nil {
			continue
		}
		for _, ref := range []any{dig(c, "spec", "chat", "connectionRef"), dig(c, "spec", "agent", "backendRef")} {
			if m, ok := ref.(map[string]any); ok && text(m["namespace"]) == "" {
				m["namespace"] = home
			}
		}
		objs = append(objs, c)
	}
	for _, m := range objs {
		if spec, ok := m["spec"].(map[string]any); ok && (m["kind"] == "ChatConnection" || m["kind"] == "AgentBackend") {
			if l, ok := spec["allowedNamespaces"].([]any); ok {
				spec["allowedNamespaces"] = append(l[:len(l):len(l)], "team-y", "team-0")
			}
		}
	}
	return objs
}

// sameNameElsewhere copies an object of kind into another namespace
// under the same name.
func sameNameElsewhere(objs []map[string]any, kind string, r *rand.Rand) []map[string]any {
	var of []map[string]any
	for _, m := range objs {
		if m != nil && m["kind"] == kind {
			of = append(of, m)
		}
	}
	if len(of) == 0 {
		return objs
	}
	o := of[r.IntN(len(of))]
	if c := copyAs(o, "elsewhere", text(dig(o, "metadata", "name"))); c != nil {
		objs = append(objs, c)
	}
	return objs
}

// longText gives a ChatConnection a platform of 500 to 1,100 bytes of
// mixed one- to four-byte characters, which its Bindings' messages quote
// and cut.
func longText(objs []map[string]any, r *rand.Rand) {
	pieces := []string{"a", "é", "中", "😀", " ", "-"}
	for _, m := range objs {
		if m == nil || m["kind"] != "ChatConnection" {
			continue
		}
		spec, ok := m["spec"].(map[string]any)
		if !ok {
			continue
		}
		n := 500 + r.IntN(601)
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		spec["platform"] = b.String()
		return
	}
}

// extremeGeneration sets one object's generation to 2^53+1 or 2^63-1,
// the integers a float64 cannot hold.
func extremeGeneration(objs []map[string]any, r *rand.Rand) {
	var with []map[string]any
	for _, m := range objs {
		if m != nil && dig(m, "metadata", "generation") != nil {
			with = append(with, m)
		}
	}
	if len(with) == 0 {
		return
	}
	m := with[r.IntN(len(with))]
	g := json.Number("9007199254740993")
	if r.IntN(2) == 0 {
		g = json.Number(fmt.Sprint(int64(math.MaxInt64)))
	}
	m["metadata"].(map[string]any)["generation"] = g
}

// deletedBefore moves half the deletion timestamps to an instant before
// now: a minute, a day, a month or years earlier.
func deletedBefore(objs []map[string]any, now time.Time, r *rand.Rand) {
	earlier := []time.Duration{time.Minute, 24 * time.Hour, 31 * 24 * time.Hour, 3 * 366 * 24 * time.Hour}
	for _, m := range objs {
		md, ok := dig(m, "metadata").(map[string]any)
		if !ok || md["deletionTimestamp"] == nil || r.IntN(2) == 0 {
			continue
		}
		md["deletionTimestamp"] = now.Add(-earlier[r.IntN(len(earlier))]).UTC().Format(time.RFC3339)
	}
}

// memoryAhead makes the broker's memory of one Binding serve a
// generation above the object's: a snapshot that lags the memory.
func memoryAhead(f *scenario.File, objs []map[string]any, r *rand.Rand) {
	gens := map[string]int64{}
	for _, m := range objs {
		if m != nil && m["kind"] == "Binding" {
			n, _ := dig(m, "metadata", "generation").(json.Number)
			g, err := n.Int64()
			if err == nil && g < math.MaxInt64 {
				gens[text(dig(m, "metadata", "namespace"))+"/"+text(dig(m, "metadata", "name"))] = g
			}
		}
	}
	var idx []int
	for i, s := range f.Served {
		if _, ok := gens[s.Namespace+"/"+s.Name]; ok && s.Kind == "Binding" {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return
	}
	s := &f.Served[idx[r.IntN(len(idx))]]
	s.Generation = gens[s.Namespace+"/"+s.Name] + 1
}

// conditionAhead gives one condition of one object an observedGeneration
// above the object's generation.
func conditionAhead(objs []map[string]any, r *rand.Rand) {
	for _, i := range r.Perm(len(objs)) {
		n, _ := dig(objs[i], "metadata", "generation").(json.Number)
		g, err := n.Int64()
		conds, _ := dig(objs[i], "status", "conditions").([]any)
		if err != nil || g == math.MaxInt64 || len(conds) == 0 {
			continue
		}
		if c, ok := conds[r.IntN(len(conds))].(map[string]any); ok {
			c["observedGeneration"] = g + 1
			return
		}
	}
}

// foreignCondition adds a condition of another controller to one object
// that has a status.
func foreignCondition(objs []map[string]any, now time.Time, r *rand.Rand) {
	for _, i := range r.Perm(len(objs)) {
		st, ok := objs[i]["status"].(map[string]any)
		if !ok || objs[i]["kind"] == "ConfigMap" {
			continue
		}
		conds, _ := st["conditions"].([]any)
		c := map[string]any{"type": "example.com/Audited", "status": "True", "reason": "Checked", "message": "",
			"lastTransitionTime": now.Add(-time.Hour).UTC().Format(time.RFC3339)}
		st["conditions"] = append(conds[:len(conds):len(conds)], c)
		return
	}
}

// failedRead makes the read of one Offering or PriceBook fail.
func failedRead(f *scenario.File, objs []map[string]any, r *rand.Rand) {
	var cands []map[string]any
	for _, m := range objs {
		if m != nil && (m["kind"] == "Offering" || m["kind"] == "PriceBook") {
			cands = append(cands, m)
		}
	}
	if len(cands) == 0 {
		return
	}
	m := cands[r.IntN(len(cands))]
	f.Failures = append(f.Failures, scenario.Failure{Kind: text(m["kind"]),
		Namespace: text(dig(m, "metadata", "namespace")), Name: text(dig(m, "metadata", "name"))})
}

// carriedSubscriptionConditions gives one Subscription the conditions an
// earlier reconcile left: a terminal Active (ParentDeactivated) and,
// when no collection ran now, the collector's CostsResolved.
func carriedSubscriptionConditions(f *scenario.File, objs []map[string]any, r *rand.Rand) {
	var subs []map[string]any
	for _, m := range objs {
		if m != nil && m["kind"] == "Subscription" {
			subs = append(subs, m)
		}
	}
	if len(subs) == 0 {
		return
	}
	m := subs[r.IntN(len(subs))]
	st, ok := m["status"].(map[string]any)
	if !ok {
		st = map[string]any{}
		m["status"] = st
	}
	at := f.Now.Add(-48 * time.Hour).UTC().Format(time.RFC3339)
	gen := dig(m, "metadata", "generation")
	if gen == nil {
		gen = json.Number("1")
	}
	var conds []any
	if r.IntN(2) == 0 {
		conds = append(conds, map[string]any{"type": "Active", "status": "False", "reason": "ParentDeactivated",
			"message": "", "lastTransitionTime": at, "observedGeneration": gen})
		st["deactivatedAt"] = at
	}
	if f.Collection == nil {
		conds = append(conds, map[string]any{"type": "CostsResolved", "status": "True", "reason": "FromDB",
			"message": "", "lastTransitionTime": at, "observedGeneration": gen})
	}
	if len(conds) > 0 {
		st["conditions"] = conds
	}
}

// readyDependent makes a ready Offering require an Offering being
// deleted, and points a ready Subscription at it.
func readyDependent(objs []map[string]any, r *rand.Rand) {
	var deleting, subs []map[string]any
	for _, m := range objs {
		switch {
		case m == nil:
		case m["kind"] == "Offering" && dig(m, "metadata", "deletionTimestamp") != nil:
			deleting = append(deleting, m)
		case m["kind"] == "Subscription" && dig(m, "metadata", "deletionTimestamp") == nil:
			subs = append(subs, m)
		}
	}
	if len(deleting) == 0 {
		return
	}
	o := deleting[r.IntN(len(deleting))]
	ref := map[string]any{"namespace": dig(o, "metadata", "namespace"), "name": dig(o, "metadata", "name")}
	for _, m := range objs {
		// A ready Offering that requires the deleted one.
		if m != nil && m["kind"] == "Offering" && dig(m, "metadata", "deletionTimestamp") == nil && r.IntN(2) == 0 {
			if spec, ok := m["spec"].(map[string]any); ok {
				spec["compatibility"] = map[string]any{"requiredOfferings": []any{ref}}
				if st, ok := m["status"].(map[string]any); ok {
					st["ready"] = "True"
				} else {
					m["status"] = map[string]any{"ready": "True"}
				}
			}
			break
		}
	}
	if len(subs) == 0 {
		return
	}
	sub := subs[r.IntN(len(subs))]
	spec, ok := sub["spec"].(map[string]any)
	if !ok {
		return
	}
	spec["offeringRef"] = ref
	st, ok := sub["status"].(map[string]any)
	if !ok {
		st = map[string]any{}
		sub["status"] = st
	}
	st["ready"] = "True"
}

// deletingOffering gives each Offering being deleted the Ready and
// PricingResolved it carried before, and now and then makes listing its
// dependents fail.
func deletingOffering(f *scenario.File, objs []map[string]any, r *rand.Rand) {
	at := f.Now.Add(-24 * time.Hour).UTC().Format(time.RFC3339)
	for _, m := range objs {
		if m == nil || m["kind"] != "Offering" || dig(m, "metadata", "deletionTimestamp") == nil || r.IntN(2) == 0 {
			continue
		}
		gen := dig(m, "metadata", "generation")
		if gen == nil {
			gen = json.Number("1")
		}
		st, ok := m["status"].(map[string]any)
		if !ok {
			st = map[string]any{}
			m["status"] = st
		}
		st["conditions"] = []any{
			map[string]any{"type": "Ready", "status": "True", "reason": "ValidationSucceeded", "message": "", "lastTransitionTime": at, "observedGeneration": gen},
			map[string]any{"type": "PricingResolved", "status": "True", "reason": "PricingResolved", "message": "", "lastTransitionTime": at, "observedGeneration": gen},
		}
		st["ready"] = "True"
		if r.IntN(4) == 0 {
			f.Failures = append(f.Failures, scenario.Failure{Kind: "Subscription"})
		}
	}
}

// dropped marks an object a boundary took out of the snapshot.
const dropped = "\x00dropped"

// healthyProbes turns a third of the finished probes into good ones: a
// usable card and a bot in an open channel, so Ready can come out True.
func healthyProbes(f *scenario.File, r *rand.Rand) {
	card := json.RawMessage(`{"name":"echo","version":"1.0","supportedInterfaces":[{"url":"https://agent.example/a2a","protocolBinding":"JSONRPC"}]}`)
	yes, no := true, false
	for i := range f.Probes {
		if r.IntN(3) != 0 {
			continue
		}
		f.Probes[i].Backend = &scenario.Observation{HTTP: 200, Card: card}
		f.Probes[i].Channel = &scenario.Observation{OK: true, IsMember: &yes, IsArchived: &no}
	}
}

// goneUnderActive takes the parent or the target of one active
// Subscription out of the snapshot.
func goneUnderActive(objs []map[string]any, r *rand.Rand) []map[string]any {
	var active []map[string]any
	for _, m := range objs {
		if m != nil && m["kind"] == "Subscription" && dig(m, "status", "activatedAt") != nil {
			active = append(active, m)
		}
	}
	if len(active) == 0 {
		return objs
	}
	sub := active[r.IntN(len(active))]
	ref, ok := dig(sub, "spec", "parent", "subscriptionRef").(map[string]any)
	kind := "Subscription"
	if t, isTarget := dig(sub, "spec", "lifecycle", "targetRef").(map[string]any); isTarget && (!ok || r.IntN(2) == 0) {
		ref, ok, kind = t, true, text(t["kind"])
	}
	if !ok {
		return objs
	}
	ns := text(ref["namespace"])
	if ns == "" {
		ns = text(dig(sub, "metadata", "namespace"))
	}
	for _, m := range objs {
		if m != nil && m["kind"] == kind && text(dig(m, "metadata", "namespace")) == ns && text(dig(m, "metadata", "name")) == text(ref["name"]) {
			m[dropped] = true
		}
	}
	return objs
}
