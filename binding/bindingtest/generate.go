package bindingtest

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/internal/scenariogen"
	"github.com/condengine/condengine/scenario"
)

// Generate draws snapshot seed of the binding system with SnapshotGen,
// writes it as a scenario file without expectations (Scenario), and
// pushes two in three toward the cases the generator rarely draws: every
// HTTP class of a card fetch, good probes, three and more claims of one
// channel, claims made at the same second in different namespaces,
// same-named objects in other namespaces, platforms of 500 to 1,100
// bytes of multibyte text, memory of a generation ahead of the object's,
// the status writer's memory (writes that ended within the gap, failed
// writes, foreign edits, fights), and the pushes every kind takes. A
// pushed snapshot the engine refuses is given as drawn. It is
// System().Generate.
func Generate(seed int) (*scenario.File, error) {
	f, err := Scenario(SnapshotGen().Example(seed))
	if err != nil {
		return nil, err
	}
	return scenariogen.Generate(f, Name, seed, boundaries, func(b *scenario.File) error {
		_, err := Run(b, false)
		return err
	}), nil
}

// boundaries is the binding system's own push of a generated snapshot.
func boundaries(f *scenario.File, objs []map[string]any, r *rand.Rand) []map[string]any {
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
	if r.IntN(3) != 0 {
		rememberWrites(f, objs, r)
	}
	return objs
}

// rememberWrites gives the status writer a memory of about half the
// Bindings: what it last wrote (the status as it stands, one a foreign
// edit changed since, or nothing), when its last write ended (a moment
// ago, within the gap, at its end, long ago, or after now on a clock
// behind), failed writes, foreign edits already counted and a fight, and
// now and then a memory of an earlier object of the name (another uid,
// not used) or a shorter write gap. Where a write is due, the writer
// writes, or holds it and retries at an exact instant.
func rememberWrites(f *scenario.File, objs []map[string]any, r *rand.Rand) {
	now := f.Now.Time
	w := &scenario.Writer{}
	if r.IntN(4) == 0 {
		gap := metav1.Duration{Duration: []time.Duration{1500 * time.Millisecond, 3 * time.Second, 30 * time.Second}[r.IntN(3)]}
		w.Limits = &scenario.WriterLimits{WriteGap: &gap}
	}
	ago := []time.Duration{0, 300 * time.Millisecond, 2 * time.Second, 4700 * time.Millisecond, 10*time.Second - time.Nanosecond,
		10 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, -2 * time.Second}
	seen := map[string]bool{}
	for _, m := range objs {
		if m == nil || m["kind"] != "Binding" || r.IntN(2) == 0 {
			continue
		}
		key := scenariogen.Text(scenariogen.Dig(m, "metadata", "namespace")) + "/" + scenariogen.Text(scenariogen.Dig(m, "metadata", "name"))
		if seen[key] {
			continue
		}
		seen[key] = true
		mem := scenario.WriterMemory{Binding: key}
		switch r.IntN(6) {
		case 0:
			mem.UID = scenariogen.Text(scenariogen.Dig(m, "metadata", "uid"))
		case 1:
			mem.UID = "u-earlier" // an earlier object of the name: not used
		}
		ours := ourConditions(m)
		switch r.IntN(3) {
		case 0:
			mem.LastWritten = ours
		case 1:
			if len(ours) > 0 {
				// What it wrote differs from what stands: someone else
				// edited the status since.
				edited := slices.Clone(ours)
				edited[r.IntN(len(edited))].Message = "written before an edit"
				mem.LastWritten = edited
			}
		}
		if r.IntN(5) != 0 {
			end := metav1.NewTime(now.Add(-ago[r.IntN(len(ago))]))
			mem.LastWriteEnd = &end
		}
		if r.IntN(4) == 0 {
			mem.Failures = 1 + r.IntN(6)
		}
		if r.IntN(4) == 0 {
			for k := range 1 + r.IntN(3) {
				mem.ForeignEdits = append(mem.ForeignEdits, metav1.NewTime(now.Add(-time.Duration(k+1)*37*time.Second)))
			}
		}
		if r.IntN(6) == 0 {
			since := metav1.NewTime(now.Add(-3 * time.Minute))
			mem.FightSince, mem.FightEdits = &since, 3+r.IntN(3)
		}
		w.Bindings = append(w.Bindings, mem)
	}
	if len(w.Bindings) > 0 || w.Limits != nil {
		f.Writer = w
	}
}

// ourConditions are the conditions of the Binding vocabulary m's status
// holds, as the writer would have written them.
func ourConditions(m map[string]any) []metav1.Condition {
	raw, err := json.Marshal(scenariogen.Dig(m, "status", "conditions"))
	if err != nil {
		return nil
	}
	var conds []metav1.Condition
	if json.Unmarshal(raw, &conds) != nil {
		return nil
	}
	return binding.Vocabulary.Owned(conds)
}

// Scenario writes a binding snapshot as a scenario file: every
// object as a manifest, the broker, its memory and the probe results, so
// that the scenario runner rebuilds the same snapshot. Probe bodies are
// kept as raw text (cardText); a parsed card is written out as JSON. The
// file has the name "generated" and no expectations.
//
// A file holds one object per kind, namespace and name, as the API server
// does and as the strict decoder demands; a snapshot that lists a name
// twice (the engine reads such twins as neither) is written with the
// first of them only.
func Scenario(s binding.Snapshot) (*scenario.File, error) {
	f := &scenario.File{Name: "generated", System: Name, Now: metav1.NewTime(s.Now)}
	w := scenariogen.Writer{F: f}
	leader, listed := s.Broker.Leader, s.Broker.ProberListed
	started := metav1.NewTime(s.Broker.StartedAt)
	f.Broker = &scenario.Broker{StartedAt: &started, ConfigSource: string(s.Broker.ConfigSource),
		Leader: &leader, Name: s.Broker.Name, ProberListed: &listed}
	for i := range s.Bindings {
		if err := w.Add(akv1.APIVersion, akv1.KindBinding, &s.Bindings[i]); err != nil {
			return nil, err
		}
	}
	for i := range s.Backends {
		if err := w.Add(akv1.APIVersion, akv1.KindAgentBackend, &s.Backends[i]); err != nil {
			return nil, err
		}
	}
	for i := range s.Connections {
		if err := w.Add(akv1.APIVersion, akv1.KindChatConnection, &s.Connections[i]); err != nil {
			return nil, err
		}
	}
	for _, m := range s.Served.Objects {
		var spec any
		switch {
		case m.Binding != nil:
			spec = m.Binding
		case m.Backend != nil:
			spec = m.Backend
		case m.Connection != nil:
			spec = m.Connection
		}
		raw, err := json.Marshal(spec)
		if err != nil {
			return nil, err
		}
		f.Served = append(f.Served, scenario.Served{Kind: m.Kind, Namespace: m.Namespace, Name: m.Name,
			UID: string(m.UID), Generation: m.Generation, Spec: raw})
	}
	for _, p := range s.Probes {
		sp := scenario.Probe{Binding: p.Namespace + "/" + p.Name, UID: string(p.UID), Generation: p.Generation}
		if sp.UID == "" {
			// The format reads an empty uid as "the Binding's current
			// one"; a probe of no object at all is kept as such.
			sp.UID = "none"
		}
		if o := p.Backend; o != nil {
			obs := &scenario.Observation{HTTP: o.HTTPStatus, CardBytes: o.BodyBytes, Error: o.Error,
				RetryAfter: o.RetryAfter, Timeout: o.Timeout, Failed: o.Failed}
			body := o.Body
			if o.Card != nil {
				b, err := json.Marshal(o.Card)
				if err != nil {
					return nil, err
				}
				body = b
			}
			if body != nil {
				text := string(body)
				obs.CardText = &text
			}
			sp.Backend = obs
		}
		if o := p.Channel; o != nil {
			member, archived := o.IsMember, o.IsArchived
			sp.Channel = &scenario.Observation{HTTP: o.HTTPStatus, OK: o.OK, IsMember: &member, IsArchived: &archived,
				Error: o.Error, RetryAfter: o.RetryAfter, Timeout: o.Timeout, Failed: o.Failed}
		}
		f.Probes = append(f.Probes, sp)
	}
	return f, nil
}

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
		ch, ts := scenariogen.Text(scenariogen.Dig(m, "spec", "chat", "channel")), scenariogen.Text(scenariogen.Dig(m, "metadata", "creationTimestamp"))
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
		if o, ok := oldest[scenariogen.Text(scenariogen.Dig(m, "spec", "chat", "channel"))]; ok {
			if md, ok := m["metadata"].(map[string]any); ok && md["creationTimestamp"] != nil {
				md["creationTimestamp"] = o
			}
		}
	}
}

// moreClaimants copies a Binding into two other namespaces, claiming the
// same channel at the same second.
func moreClaimants(objs []map[string]any, r *rand.Rand) []map[string]any {
	var bindings []map[string]any
	for _, m := range objs {
		if m != nil && m["kind"] == "Binding" && scenariogen.Text(scenariogen.Dig(m, "metadata", "name")) != "" {
			bindings = append(bindings, m)
		}
	}
	if len(bindings) == 0 {
		return objs
	}
	b := bindings[r.IntN(len(bindings))]
	name := scenariogen.Text(scenariogen.Dig(b, "metadata", "name"))
	// Names that sort against their namespaces: a0-… in team-y, z0-… in
	// team-0, so an order that skips a field shows.
	// The copies name the original's connection and backend in its
	// namespace, and every allow-list lets their namespaces in, so they
	// claim the channel.
	home := scenariogen.Text(scenariogen.Dig(b, "metadata", "namespace"))
	// The copies' names stay within the 253 characters a name may have.
	name = name[:min(len(name), 250)]
	for _, c := range []map[string]any{scenariogen.CopyAs(b, "team-y", "a0-"+name), scenariogen.CopyAs(b, "team-0", "z0-"+name)} {
		if c == nil {
			continue
		}
		for _, ref := range []any{scenariogen.Dig(c, "spec", "chat", "connectionRef"), scenariogen.Dig(c, "spec", "agent", "backendRef")} {
			if m, ok := ref.(map[string]any); ok && scenariogen.Text(m["namespace"]) == "" {
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
	if c := scenariogen.CopyAs(o, "elsewhere", scenariogen.Text(scenariogen.Dig(o, "metadata", "name"))); c != nil {
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

// memoryAhead makes the broker's memory of one Binding serve a
// generation above the object's: a snapshot that lags the memory.
func memoryAhead(f *scenario.File, objs []map[string]any, r *rand.Rand) {
	gens := map[string]int64{}
	for _, m := range objs {
		if m != nil && m["kind"] == "Binding" {
			n, _ := scenariogen.Dig(m, "metadata", "generation").(json.Number)
			g, err := n.Int64()
			if err == nil && g < math.MaxInt64 {
				gens[scenariogen.Text(scenariogen.Dig(m, "metadata", "namespace"))+"/"+scenariogen.Text(scenariogen.Dig(m, "metadata", "name"))] = g
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
