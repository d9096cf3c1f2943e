package bindingtest

import (
	"slices"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

// Namespaces are the namespaces generated snapshots use. Few, so that
// cross-namespace references and conflicts are common.
func Namespaces() []string { return []string{"team-a", "team-b", "shared"} }

// Canary is the string planted in every text of namespace ns's objects
// that no message of another namespace may show: URLs, secret names,
// platforms, bad allowedNamespaces entries and Binding names.
func Canary(ns string) string { return "cnry" + ns[len(ns)-1:] + "zq" }

// ProbeCanary is planted in every probe error and card body; no message
// may ever show it.
const ProbeCanary = "prbcnryzq"

// GenNow is the whole second generated snapshots are drawn around: the
// objects' instants are whole seconds from it, as the API server stores
// them, and a snapshot's now is it or a fraction of a second after.
func GenNow() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC) }

// The longest texts the checks accept, and one byte more: a channel of
// 80 bytes (ASCII, or two-byte characters), a reference name of 253
// characters (a DNS-1123 subdomain) and a namespace of 63 (a label).
var (
	channel80      = "C" + strings.Repeat("0123456789ABCDEF", 5)[:79]
	channel81      = channel80 + "X"
	channel80Bytes = strings.Repeat("é", 40)
	channel81Bytes = "x" + channel80Bytes
	name253        = "ghost-" + strings.Repeat("n", 247)
	name254        = name253 + "n"
	namespace63    = "team-" + strings.Repeat("l", 58)
	namespace64    = namespace63 + "l"
)

var (
	backendNames    = []string{"echo", "echo", "hub", "ghost"}
	connectionNames = []string{"slack", "slack", "hub"}
	channels        = []string{"C1", "C1", "C2", "C2", "C3", "C1", "C2", "C3", "bad channel", ""}
	// limitChannels are drawn one time in six, so that the longest ones
	// also conflict.
	limitChannels = []string{channel80, channel80, channel80Bytes, channel80Bytes, channel81, channel81Bytes}
)

// genChannel draws a Binding's channel: a short one, mostly good, or one
// at the limit of 80 bytes or a byte over it.
func genChannel(t *rapid.T) string {
	if oneIn(t, "limitChannel", 6) {
		return rapid.SampledFrom(limitChannels).Draw(t, "limitChannelValue")
	}
	return rapid.SampledFrom(channels).Draw(t, "channel")
}

// subSecond is how far past GenNow a snapshot's now lies: nothing, a
// nanosecond, half a second, the last nanosecond of the second, or some
// milliseconds.
func subSecond(t *rapid.T) time.Duration {
	switch rapid.IntRange(0, 4).Draw(t, "nowFraction") {
	case 1:
		return time.Nanosecond
	case 2:
		return 500 * time.Millisecond
	case 3:
		return time.Second - time.Nanosecond
	case 4:
		return time.Duration(rapid.IntRange(1, 999).Draw(t, "nowMillis")) * time.Millisecond
	}
	return 0
}

// bindingName is the i-th Binding's name in ns: "b<i>-<canary>", or that
// name made 63 or 253 characters long, the longest label and the longest
// name the API server takes.
func bindingName(t *rapid.T, i int, ns string) string {
	name := "b" + strconv.Itoa(i) + "-" + Canary(ns)
	switch rapid.IntRange(0, 5).Draw(t, "nameLength") {
	case 4:
		return name + "-" + strings.Repeat("m", 63-len(name)-1)
	case 5:
		return name + "-" + strings.Repeat("m", 253-len(name)-1)
	}
	return name
}

// SnapshotGen generates whole snapshots: the three kinds with valid and
// invalid specs (one world in four healthy throughout), references within
// and across namespaces, names, namespaces and channels at their limits
// and one over, channel conflicts, memory entries for current, old and
// unknown UIDs, probe results of every kind (some for stale UIDs or
// future generations), statuses left by earlier evaluations, by someone
// else or by an earlier object of the same name, statuses already as the
// engine computes them (some in another order), Bindings being deleted,
// a now a fraction of a second past the whole second, and a broker that
// may not lead, not have listed yet, or run the ConfigMap route.
func SnapshotGen() *rapid.Generator[binding.Snapshot] {
	return rapid.Custom(func(t *rapid.T) binding.Snapshot {
		base := GenNow()
		now := base.Add(subSecond(t))
		// One world in four is healthy: every object there and valid,
		// every namespace allowed, every reference good, probes that
		// mostly succeed, so that Bindings get through to Ready and
		// contest their channels.
		healthy := oneIn(t, "healthyWorld", 4)
		s := binding.Snapshot{
			Now: now,
			Broker: binding.Broker{
				Name:         brokerName(t, healthy),
				Leader:       !oneIn(t, "standby", 7),
				StartedAt:    now.Add(-time.Hour),
				ConfigSource: route(t),
				ProberListed: !oneIn(t, "notListed", 5),
			},
		}
		nsGen := rapid.SampledFrom(Namespaces())
		// Most namespaces hold the objects their Bindings name, so that
		// Bindings get as far as the channel and the probes; a repeated
		// name (which leaves both objects out) comes now and then.
		for _, ns := range Namespaces() {
			for _, name := range []string{"echo", "hub"} {
				if !healthy && oneIn(t, "noBackend", 4) {
					continue
				}
				b := NewBackend(ns, name, genAllowed(t, ns, healthy)...)
				drawMeta(t, &b.ObjectMeta, "ub-")
				b.Spec.URL = "https://" + Canary(ns) + ".example:8443"
				if !healthy && oneIn(t, "badBackend", 5) {
					b.Spec.URL = "ftp://" + Canary(ns) + ".example:21/x?" + Canary(ns)
					b.Spec.AuthSecretRef = &akv1.SecretKeyRef{Name: "Secret_" + Canary(ns)}
				}
				s.Backends = append(s.Backends, b)
				if !healthy && oneIn(t, "repeatBackend", 30) {
					twin := b
					twin.UID += "-twin"
					s.Backends = append(s.Backends, twin)
				}
			}
			for _, name := range []string{"slack", "hub"} {
				if !healthy && oneIn(t, "noConnection", 4) {
					continue
				}
				c := NewConnection(ns, name, genAllowed(t, ns, healthy)...)
				drawMeta(t, &c.ObjectMeta, "uc-")
				c.Spec.TokenSecretRef.Name = "tok-" + Canary(ns)
				if !healthy && oneIn(t, "badConnection", 5) {
					c.Spec.Platform = "teams-" + Canary(ns)
				}
				if !healthy && oneIn(t, "otherBroker", 4) {
					c.Spec.Broker = "broker-b"
				}
				s.Connections = append(s.Connections, c)
			}
		}
		for i := range rapid.IntRange(0, 8).Draw(t, "nBindings") {
			ns := nsGen.Draw(t, "ns")
			b := NewBinding(ns, bindingName(t, i, ns))
			b.UID = types.UID("u" + strconv.Itoa(i))
			b.Generation = rapid.Int64Range(1, 4).Draw(t, "gen")
			b.CreationTimestamp = metav1.NewTime(base.Add(-time.Duration(rapid.IntRange(1, 4).Draw(t, "age")) * time.Hour))
			if healthy {
				b.Spec.Agent.BackendRef.Name = rapid.SampledFrom([]string{"echo", "hub"}).Draw(t, "healthyBackend")
				b.Spec.Chat.ConnectionRef.Name = rapid.SampledFrom([]string{"slack", "hub"}).Draw(t, "healthyConnection")
				b.Spec.Chat.Channel = rapid.SampledFrom([]string{"C1", "C1", "C2", "C3", channel80, channel80Bytes}).Draw(t, "healthyChannel")
			} else {
				b.Spec.Agent.BackendRef = genRef(t, ns, backendNames)
				b.Spec.Chat.ConnectionRef = genRef(t, ns, connectionNames)
				b.Spec.Chat.Channel = genChannel(t)
			}
			b.Status.Conditions = genStatus(t, b.Generation, base)
			if oneIn(t, "deleting", 8) {
				// Held by someone else's finalizer while it goes; the
				// broker manages none on a Binding.
				at := metav1.NewTime(base.Add(-time.Duration(rapid.IntRange(0, 90).Draw(t, "deletedAgo")) * time.Minute))
				b.DeletionTimestamp, b.Finalizers = &at, []string{"example.com/cleanup"}
			}
			s.Bindings = append(s.Bindings, b)
		}
		genMemory(t, &s)
		genProbes(t, &s, healthy)
		if rapid.Bool().Draw(t, "settle") {
			settle(t, &s)
		}
		if oneIn(t, "madeAgain", 4) {
			madeAgain(t, &s)
		}
		return s
	})
}

// settle gives some of the Bindings whose status an evaluation of s
// would change the status it computes, as if an earlier reconcile had
// written it, now and then with our conditions in another order (which
// is no change): evaluated again, each is unchanged.
func settle(t *rapid.T, s *binding.Snapshot) {
	r, err := binding.Evaluate(*s)
	if err != nil {
		return
	}
	for i := range r.Bindings {
		o := &r.Bindings[i]
		if !o.Due() || !rapid.Bool().Draw(t, "settleBinding") {
			continue
		}
		for j := range s.Bindings {
			b := &s.Bindings[j]
			if b.Namespace != o.Namespace || b.Name != o.Name || b.UID != o.UID {
				continue
			}
			conds := slices.Clone(o.Conditions)
			if oneIn(t, "reordered", 3) {
				slices.Reverse(conds)
			}
			b.Status.Conditions = conds
		}
	}
}

// madeAgain deletes one Binding with conditions and makes it again under
// the same name: a new uid, created when its last condition was written
// or a moment later, so the conditions it carries were (or, at the same
// second, were not) left by the earlier object. Probes and memory of the
// earlier uid stay.
func madeAgain(t *rapid.T, s *binding.Snapshot) {
	var with []int
	for i := range s.Bindings {
		if len(s.Bindings[i].Status.Conditions) > 0 {
			with = append(with, i)
		}
	}
	if len(with) == 0 {
		return
	}
	b := &s.Bindings[rapid.SampledFrom(with).Draw(t, "madeAgainBinding")]
	var last time.Time
	for _, c := range b.Status.Conditions {
		if c.LastTransitionTime.After(last) {
			last = c.LastTransitionTime.Time
		}
	}
	after := rapid.SampledFrom([]time.Duration{0, time.Second, 30 * time.Second}).Draw(t, "madeAgainAfter")
	b.UID += "-again"
	b.Generation = 1
	b.CreationTimestamp = metav1.NewTime(last.Truncate(time.Second).Add(after))
}

// drawMeta gives a drawn AgentBackend or ChatConnection its uid, prefix
// then "<namespace>-<name>", unique across the two kinds where their
// builders' uids are not, and a generation from 1 to 3.
func drawMeta(t *rapid.T, m *metav1.ObjectMeta, prefix string) {
	m.UID = types.UID(prefix + m.Namespace + "-" + m.Name)
	m.Generation = rapid.Int64Range(1, 3).Draw(t, "gen")
}

// genAllowed draws an allowedNamespaces list; a healthy world's allows
// every namespace.
func genAllowed(t *rapid.T, ns string, healthy bool) []string {
	if healthy {
		return []string{"*"}
	}
	return rapid.SliceOfN(rapid.SampledFrom([]string{"team-a", "team-b", "shared", "*", "Bad " + Canary(ns)}), 0, 2).Draw(t, "allowed")
}

func genRef(t *rapid.T, ns string, names []string) akv1.Ref {
	r := akv1.Ref{Name: rapid.SampledFrom(names).Draw(t, "refName")}
	switch rapid.SampledFrom(indexes[:11]).Draw(t, "refNS") {
	case 0:
		r.Namespace = rapid.SampledFrom(Namespaces()).Draw(t, "refNamespace")
	case 1:
		r.Namespace = ns
	case 2:
		if rapid.Bool().Draw(t, "badRef") {
			r.Name = "Bad_Name"
		}
	case 3:
		// At the limits of a name and a namespace, and one over.
		switch rapid.IntRange(0, 3).Draw(t, "limitRef") {
		case 0:
			r.Name = name253
		case 1:
			r.Name = name254
		case 2:
			r.Namespace = namespace63
		default:
			r.Namespace = namespace64
		}
	}
	return r
}

// genStatus makes a status as an earlier evaluation or a stranger might
// have left it: empty, or conditions of the vocabulary (some about a
// newer generation, so the snapshot is stale) and sometimes a foreign one.
func genStatus(t *rapid.T, gen int64, now time.Time) []metav1.Condition {
	if rapid.Bool().Draw(t, "noStatus") {
		return nil
	}
	var out []metav1.Condition
	for _, typ := range binding.Vocabulary.Types() {
		if oneIn(t, "keepType", 5) {
			continue
		}
		r := rapid.SampledFrom(typ.Reasons).Draw(t, "reason")
		g := rapid.Int64Range(0, gen).Draw(t, "obsGen")
		if oneIn(t, "staleRoll", 50) {
			g = gen + 1
		}
		out = append(out, metav1.Condition{Type: typ.Name, Status: r.Status, Reason: r.Reason, ObservedGeneration: g,
			LastTransitionTime: metav1.NewTime(now.Add(-time.Duration(rapid.IntRange(1, 300).Draw(t, "ago")) * time.Minute))})
	}
	if oneIn(t, "foreignRoll", 10) {
		out = append(out, metav1.Condition{Type: "example.com/Other", Status: metav1.ConditionTrue, Reason: "Fine",
			LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))})
	}
	return out
}

// genMemory remembers some current objects at some generation, and some
// objects that no longer exist.
func genMemory(t *rapid.T, s *binding.Snapshot) {
	for i := range s.Bindings {
		b := &s.Bindings[i]
		if rapid.Bool().Draw(t, "rememberBinding") {
			spec := b.Spec
			spec.Chat.Channel = rapid.SampledFrom(channels[:3]).Draw(t, "oldChannel")
			spec.Agent.BackendRef.Name = rapid.SampledFrom(backendNames).Draw(t, "oldBackend")
			s.Served.Objects = append(s.Served.Objects, served(t, akv1.KindBinding, b, binding.Served{Binding: &spec}))
		}
	}
	for i := range s.Backends {
		b := &s.Backends[i]
		if rapid.Bool().Draw(t, "rememberBackend") {
			spec := akv1.AgentBackendSpec{URL: "https://old-" + Canary(b.Namespace) + ".example", AllowedNamespaces: genAllowed(t, b.Namespace, false)}
			s.Served.Objects = append(s.Served.Objects, served(t, akv1.KindAgentBackend, b, binding.Served{Backend: &spec}))
		}
	}
	for i := range s.Connections {
		c := &s.Connections[i]
		if rapid.Bool().Draw(t, "rememberConnection") {
			spec := akv1.ChatConnectionSpec{Platform: akv1.PlatformSlack, TokenSecretRef: &akv1.SecretKeyRef{Name: "t", Key: "k"},
				Broker: c.Spec.Broker, AllowedNamespaces: genAllowed(t, c.Namespace, false)}
			s.Served.Objects = append(s.Served.Objects, served(t, akv1.KindChatConnection, c, binding.Served{Connection: &spec}))
		}
	}
	if rapid.Bool().Draw(t, "rememberGone") {
		spec := NewBinding("team-a", "gone").Spec
		s.Served.Objects = append(s.Served.Objects, binding.Served{Kind: akv1.KindBinding, Namespace: "team-a", Name: "gone", UID: "u-gone", Generation: 1, Binding: &spec})
	}
}

// served is m, the broker's memory of o's spec, made the memory of o, of
// kind, at a generation drawn from 1 to o's own.
func served(t *rapid.T, kind string, o metav1.Object, m binding.Served) binding.Served {
	m.Kind, m.Namespace, m.Name, m.UID = kind, o.GetNamespace(), o.GetName(), o.GetUID()
	m.Generation = rapid.Int64Range(1, o.GetGeneration()).Draw(t, "servedGen")
	return m
}

// genProbes draws up to two finished probes of each Binding; in a
// healthy world most are of the current generation and succeed.
func genProbes(t *rapid.T, s *binding.Snapshot, healthy bool) {
	for i := range s.Bindings {
		b := &s.Bindings[i]
		for range rapid.IntRange(0, 2).Draw(t, "nProbes") {
			r := binding.ProbeResult{UID: b.UID, Namespace: b.Namespace, Name: b.Name, Generation: rapid.Int64Range(1, b.Generation+1).Draw(t, "probeGen")}
			if healthy && !oneIn(t, "healthyProbeFails", 3) {
				r.Generation, r.Backend, r.Channel = b.Generation, CardOK(), Joined()
				s.Probes = append(s.Probes, r)
				continue
			}
			if oneIn(t, "oldUID", 10) {
				r.UID = "u-gone"
			}
			if !oneIn(t, "backendRunning", 5) {
				r.Backend = BackendObservationGen().Draw(t, "backend")
			}
			if !oneIn(t, "channelRunning", 5) {
				r.Channel = ChannelObservationGen().Draw(t, "channel")
			}
			s.Probes = append(s.Probes, r)
		}
	}
}

// BackendObservationGen generates card fetch outcomes of every row of the
// classification table, with ProbeCanary in every raw text.
func BackendObservationGen() *rapid.Generator[*binding.BackendObservation] {
	return rapid.Custom(func(t *rapid.T) *binding.BackendObservation {
		switch rapid.IntRange(0, 9).Draw(t, "kind") {
		case 0, 1:
			return CardOK()
		case 2:
			return CardBody(`{"name":"x","version":"1","url":"https://` + ProbeCanary + `.example"}`)
		case 3:
			return CardBody("<html>" + ProbeCanary + "</html>")
		case 4:
			return &binding.BackendObservation{HTTPStatus: 200, Card: Card(), BodyBytes: binding.MaxCardBytes + 1}
		case 5:
			return HTTP(rapid.SampledFrom([]int{204, 301, 400, 401, 403, 404, 408, 410, 425, 429, 500, 503}).Draw(t, "code"))
		case 6:
			return NoAnswer(rapid.SampledFrom([]string{"dns", "refused", "reset", "tls", ProbeCanary}).Draw(t, "err"))
		case 7:
			return BackendTimeout()
		case 8:
			return BackendFailed("secret " + ProbeCanary + " missing at 10.0.0.1:443")
		}
		return &binding.BackendObservation{}
	})
}

// ChannelObservationGen generates platform answers of every row of the
// classification table, with ProbeCanary in unknown error codes and
// prober failures.
func ChannelObservationGen() *rapid.Generator[*binding.ChannelObservation] {
	return rapid.Custom(func(t *rapid.T) *binding.ChannelObservation {
		switch rapid.IntRange(0, 6).Draw(t, "kind") {
		case 0, 1:
			return Joined()
		case 2:
			return ChannelState(rapid.Bool().Draw(t, "member"), rapid.Bool().Draw(t, "archived"))
		case 3:
			return PlatformError(rapid.SampledFrom([]string{"is_archived", "not_in_channel", "channel_not_found", "invalid_auth",
				"ratelimited", "rate_limited", "request_timeout", "fatal_error", ProbeCanary}).Draw(t, "code"))
		case 4:
			return PlatformHTTP(rapid.SampledFrom([]int{429, 500, 503}).Draw(t, "code"))
		case 5:
			return ChannelTimeout()
		}
		return ChannelFailed("token " + ProbeCanary + " unreadable")
	})
}

// oneIn is true about once in n draws. rapid's number generators lean
// hard towards small values, so chances are drawn from a list instead,
// the rare value last.
func oneIn(t *rapid.T, label string, n int) bool {
	return rapid.SampledFrom(indexes[:n]).Draw(t, label) == n-1
}

var indexes = [...]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
	26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49}

func brokerName(t *rapid.T, healthy bool) string {
	if !healthy && oneIn(t, "brokerB", 5) {
		return "broker-b"
	}
	return ""
}

func route(t *rapid.T) binding.ConfigSource {
	switch {
	case oneIn(t, "configMap", 8):
		return binding.ConfigSourceConfigMap
	case oneIn(t, "zeroRoute", 4):
		return ""
	}
	return binding.ConfigSourceCRDs
}
