package bindingtest

import (
	"strconv"
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

// GenNow is the instant of generated snapshots.
func GenNow() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC) }

var (
	backendNames    = []string{"echo", "echo", "hub", "ghost"}
	connectionNames = []string{"slack", "slack", "hub"}
	channels        = []string{"C1", "C1", "C2", "C2", "C3", "C1", "C2", "C3", "bad channel", ""}
)

// SnapshotGen generates whole snapshots: the three kinds with valid and
// invalid specs, references within and across namespaces, channel
// conflicts, memory entries for current, old and unknown UIDs, probe
// results of every kind (some for stale UIDs or future generations),
// statuses left by earlier evaluations or by someone else, and a broker
// that may not lead, not have listed yet, or run the ConfigMap route.
func SnapshotGen() *rapid.Generator[binding.Snapshot] {
	return rapid.Custom(func(t *rapid.T) binding.Snapshot {
		now := GenNow()
		s := binding.Snapshot{
			Now: now,
			Broker: binding.Broker{
				Name:         brokerName(t),
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
				if oneIn(t, "noBackend", 4) {
					continue
				}
				b := NewBackend(ns, name, genAllowed(t, ns)...)
				drawMeta(t, &b.ObjectMeta, "ub-")
				b.Spec.URL = "https://" + Canary(ns) + ".example:8443"
				if oneIn(t, "badBackend", 5) {
					b.Spec.URL = "ftp://" + Canary(ns) + ".example:21/x?" + Canary(ns)
					b.Spec.AuthSecretRef = &akv1.SecretKeyRef{Name: "Secret_" + Canary(ns)}
				}
				s.Backends = append(s.Backends, b)
				if oneIn(t, "repeatBackend", 30) {
					twin := b
					twin.UID += "-twin"
					s.Backends = append(s.Backends, twin)
				}
			}
			for _, name := range []string{"slack", "hub"} {
				if oneIn(t, "noConnection", 4) {
					continue
				}
				c := NewConnection(ns, name, genAllowed(t, ns)...)
				drawMeta(t, &c.ObjectMeta, "uc-")
				c.Spec.TokenSecretRef.Name = "tok-" + Canary(ns)
				if oneIn(t, "badConnection", 5) {
					c.Spec.Platform = "teams-" + Canary(ns)
				}
				if oneIn(t, "otherBroker", 4) {
					c.Spec.Broker = "broker-b"
				}
				s.Connections = append(s.Connections, c)
			}
		}
		for i := range rapid.IntRange(0, 8).Draw(t, "nBindings") {
			ns := nsGen.Draw(t, "ns")
			b := NewBinding(ns, "b"+strconv.Itoa(i)+"-"+Canary(ns))
			b.UID = types.UID("u" + strconv.Itoa(i))
			b.Generation = rapid.Int64Range(1, 4).Draw(t, "gen")
			b.CreationTimestamp = metav1.NewTime(now.Add(-time.Duration(rapid.IntRange(1, 4).Draw(t, "age")) * time.Hour))
			b.Spec.Agent.BackendRef = genRef(t, ns, backendNames)
			b.Spec.Chat.ConnectionRef = genRef(t, ns, connectionNames)
			b.Spec.Chat.Channel = rapid.SampledFrom(channels).Draw(t, "channel")
			b.Status.Conditions = genStatus(t, b.Generation, now)
			s.Bindings = append(s.Bindings, b)
		}
		genMemory(t, &s)
		genProbes(t, &s)
		return s
	})
}

// drawMeta gives a drawn AgentBackend or ChatConnection its uid, prefix
// then "<namespace>-<name>", unique across the two kinds where their
// builders' uids are not, and a generation from 1 to 3.
func drawMeta(t *rapid.T, m *metav1.ObjectMeta, prefix string) {
	m.UID = types.UID(prefix + m.Namespace + "-" + m.Name)
	m.Generation = rapid.Int64Range(1, 3).Draw(t, "gen")
}

func genAllowed(t *rapid.T, ns string) []string {
	return rapid.SliceOfN(rapid.SampledFrom([]string{"team-a", "team-b", "shared", "*", "Bad " + Canary(ns)}), 0, 2).Draw(t, "allowed")
}

func genRef(t *rapid.T, ns string, names []string) akv1.Ref {
	r := akv1.Ref{Name: rapid.SampledFrom(names).Draw(t, "refName")}
	switch rapid.SampledFrom(indexes[:10]).Draw(t, "refNS") {
	case 0:
		r.Namespace = rapid.SampledFrom(Namespaces()).Draw(t, "refNamespace")
	case 1:
		r.Namespace = ns
	case 2:
		if rapid.Bool().Draw(t, "badRef") {
			r.Name = "Bad_Name"
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
			spec := akv1.AgentBackendSpec{URL: "https://old-" + Canary(b.Namespace) + ".example", AllowedNamespaces: genAllowed(t, b.Namespace)}
			s.Served.Objects = append(s.Served.Objects, served(t, akv1.KindAgentBackend, b, binding.Served{Backend: &spec}))
		}
	}
	for i := range s.Connections {
		c := &s.Connections[i]
		if rapid.Bool().Draw(t, "rememberConnection") {
			spec := akv1.ChatConnectionSpec{Platform: akv1.PlatformSlack, TokenSecretRef: &akv1.SecretKeyRef{Name: "t", Key: "k"},
				Broker: c.Spec.Broker, AllowedNamespaces: genAllowed(t, c.Namespace)}
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

func genProbes(t *rapid.T, s *binding.Snapshot) {
	for i := range s.Bindings {
		b := &s.Bindings[i]
		for range rapid.IntRange(0, 2).Draw(t, "nProbes") {
			r := binding.ProbeResult{UID: b.UID, Namespace: b.Namespace, Name: b.Name, Generation: rapid.Int64Range(1, b.Generation+1).Draw(t, "probeGen")}
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

func brokerName(t *rapid.T) string {
	if oneIn(t, "brokerB", 5) {
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
