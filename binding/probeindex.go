package binding

import (
	"bytes"
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/types"
)

// probeIndex groups the probe results by UID, so each Binding finds its
// own in one short run; within a run the newest generation comes first,
// then an order on the content, so that even duplicates have one order.
// Grouping is a counting pass, linear in the number of results.
type probeIndex struct {
	order []int             // positions in Snapshot.Probes, grouped by UID
	start map[types.UID]int // first position in order for a UID
	used  []bool            // by position in Snapshot.Probes
	why   []string          // why an unused result was ignored, when known
	out   []IgnoredProbe    // the array ignored lists into
	// uids are the UIDs of the results by position when the groups were
	// made, and multi the groups of more than one result, as start and
	// end in order: while the results keep their UIDs at every position,
	// the groups stay, and only the groups of more than one are ordered
	// again (their content may have changed).
	uids  []types.UID
	multi [][2]int32
	// byBinding, in a scratch kept from pass to pass, is each Binding's
	// start by its position in Snapshot.Bindings (-1 for none), found
	// once and kept while the groups and the Bindings' UIDs stay: a
	// lookup by position instead of by UID (keepStarts).
	byBinding []int32
}

// indexProbes builds the index into p, reusing its buffers, and keeps
// the last pass's groups when every position holds a result of the
// same UID as then, which it reports.
func indexProbes(s *Snapshot, p *probeIndex) bool {
	same := p.start != nil && len(p.uids) == len(s.Probes)
	uids := p.uids
	if !same {
		uids = reuse(uids, len(s.Probes))
	}
	for i := range s.Probes {
		if uid := s.Probes[i].UID; !same || !sameString(string(uids[i]), string(uid)) {
			same = false
			uids[i] = uid
		}
	}
	*p = probeIndex{
		order:     p.order,
		start:     p.start,
		used:      reuse(p.used, len(s.Probes)),
		why:       reuse(p.why, len(s.Probes)),
		out:       p.out,
		uids:      uids,
		multi:     p.multi,
		byBinding: p.byBinding,
	}
	if same {
		for _, g := range p.multi {
			group := p.order[g[0]:g[1]]
			slices.SortFunc(group, func(a, b int) int { return compareProbes(&s.Probes[a], &s.Probes[b]) })
		}
		return true
	}
	p.order = reuse(p.order, len(s.Probes))
	p.start = reuseMap(p.start, len(s.Probes))
	p.multi = p.multi[:0]
	// Count each UID's results, turn the counts into group offsets, then
	// place each result in its group.
	for i := range s.Probes {
		p.start[s.Probes[i].UID]++
	}
	next := 0
	for i := range s.Probes {
		uid := s.Probes[i].UID
		if n := p.start[uid]; n > 0 {
			p.start[uid] = -(next + 1) // placed: store offset, negated
			next += n
		}
	}
	// Place each result at its group's next free slot (the stored offset
	// moves on as the group fills), then walk the groups, which now lie
	// one after another, to set each start and order each group.
	for i := range s.Probes {
		uid := s.Probes[i].UID
		off := -p.start[uid] - 1
		p.order[off] = i
		p.start[uid] = -(off + 2)
	}
	for k := 0; k < len(p.order); {
		uid := s.Probes[p.order[k]].UID
		end := k + 1
		for end < len(p.order) && s.Probes[p.order[end]].UID == uid {
			end++
		}
		p.start[uid] = k
		if end-k > 1 {
			group := p.order[k:end]
			slices.SortFunc(group, func(a, b int) int { return compareProbes(&s.Probes[a], &s.Probes[b]) })
			p.multi = append(p.multi, [2]int32{int32(k), int32(end)})
		}
		k = end
	}
	return false
}

// keepStarts fills byBinding, unless same (the groups and the Bindings'
// UIDs are the last pass's) leaves it as it was; keep false drops it.
func (p *probeIndex) keepStarts(s *Snapshot, keep, same bool) {
	if !keep {
		p.byBinding = nil
		return
	}
	if same && len(p.byBinding) == len(s.Bindings) {
		return
	}
	p.byBinding = reuse(p.byBinding, len(s.Bindings))
	for i := range s.Bindings {
		k, ok := p.start[s.Bindings[i].UID]
		if !ok {
			k = -1
		}
		p.byBinding[i] = int32(k)
	}
}

// first is where the results of the Binding at position i, of UID uid,
// start in order.
func (p *probeIndex) first(i int, uid types.UID) (int, bool) {
	if p.byBinding != nil {
		k := p.byBinding[i]
		return int(k), k >= 0
	}
	k, ok := p.start[uid]
	return k, ok
}

// pick finds, for the Binding at position i, of UID uid, the newest
// finished backend and channel observations of a generation not above
// the served one, and marks the results it uses and why it passes over
// the others.
func (p *probeIndex) pick(s *Snapshot, i int, uid types.UID, generation, served int64) (backend, channel *ProbeResult) {
	k, ok := p.first(i, uid)
	if !ok {
		return nil, nil
	}
	for ; k < len(p.order) && s.Probes[p.order[k]].UID == uid; k++ {
		i := p.order[k]
		r := &s.Probes[i]
		if r.Generation > generation {
			p.why[i] = "the generation is above the Binding's metadata.generation"
			continue
		}
		if r.Generation > served {
			p.why[i] = "the generation is above the generation the broker serves"
			continue
		}
		if backend == nil && r.Backend != nil {
			backend = r
			p.used[i] = true
		}
		if channel == nil && r.Channel != nil {
			channel = r
			p.used[i] = true
		}
		if !p.used[i] {
			p.why[i] = whyUnused
		}
	}
	return backend, channel
}

// mark records why every result of the Binding at position i, of UID
// uid, is ignored.
func (p *probeIndex) mark(s *Snapshot, i int, uid types.UID, why string) {
	k, ok := p.first(i, uid)
	if !ok {
		return
	}
	for ; k < len(p.order) && s.Probes[p.order[k]].UID == uid; k++ {
		p.why[p.order[k]] = why
	}
}

// ignored lists the results that counted for no Binding.
func (p *probeIndex) ignored(s *Snapshot) []IgnoredProbe {
	out := p.out[:0]
	for i := range s.Probes {
		if p.used[i] {
			continue
		}
		r := &s.Probes[i]
		why := p.why[i]
		if why == "" {
			why = "no Binding of this broker has this uid"
			if r.UID == "" {
				why = "the result has no uid"
			}
		}
		out = append(out, IgnoredProbe{UID: r.UID, Namespace: r.Namespace, Name: r.Name, Generation: r.Generation, Why: why})
	}
	p.out = out
	return orNil(out)
}

// whyUnused is the reason given to a result that was in range but lost to
// a newer one.
const whyUnused = "a newer result of the same Binding counts instead"

// compareProbes orders two results of one UID: newest generation first,
// then by content. Each step runs only when the ones before tie.
func compareProbes(a, b *ProbeResult) int {
	if c := cmp.Compare(b.Generation, a.Generation); c != 0 {
		return c
	}
	if c := compareBackendObs(a.Backend, b.Backend); c != 0 {
		return c
	}
	if c := compareChannelObs(a.Channel, b.Channel); c != 0 {
		return c
	}
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// compareBackendObs puts finished observations first, then orders them by
// every field, so which of two same-generation results counts never
// depends on list order.
func compareBackendObs(a, b *BackendObservation) int {
	if a == nil || b == nil {
		return compareBool(a != nil, b != nil)
	}
	c := cmp.Or(
		compareBool(a.Timeout, b.Timeout),
		cmp.Compare(a.Failed, b.Failed),
		cmp.Compare(a.Error, b.Error),
		cmp.Compare(a.HTTPStatus, b.HTTPStatus),
		cmp.Compare(a.BodyBytes, b.BodyBytes),
		bytes.Compare(a.Body, b.Body),
		cmp.Compare(a.RetryAfter, b.RetryAfter),
		compareBool(a.Card != nil, b.Card != nil),
	)
	if c != 0 || a.Card == nil {
		return c
	}
	return compareCards(a.Card, b.Card)
}

func compareCards(a, b *AgentCard) int {
	c := cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Version, b.Version), cmp.Compare(a.URL, b.URL),
		cmp.Compare(len(a.SupportedInterfaces), len(b.SupportedInterfaces)))
	for i := 0; c == 0 && i < len(a.SupportedInterfaces); i++ {
		x, y := a.SupportedInterfaces[i], b.SupportedInterfaces[i]
		c = cmp.Or(cmp.Compare(x.URL, y.URL), cmp.Compare(x.ProtocolBinding, y.ProtocolBinding))
	}
	return c
}

func compareChannelObs(a, b *ChannelObservation) int {
	if a == nil || b == nil {
		return compareBool(a != nil, b != nil)
	}
	return cmp.Or(
		compareBool(a.Timeout, b.Timeout),
		cmp.Compare(a.Failed, b.Failed),
		cmp.Compare(a.HTTPStatus, b.HTTPStatus),
		cmp.Compare(a.Error, b.Error),
		compareBool(a.OK, b.OK),
		compareBool(a.IsMember, b.IsMember),
		compareBool(a.IsArchived, b.IsArchived),
		cmp.Compare(a.RetryAfter, b.RetryAfter),
	)
}
