package bindingtest

import (
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/redact"
)

// minLeak is the shortest foreign text CheckInvariants looks for; shorter
// ones (a port, "tls") would match ordinary words.
const minLeak = 6

// CheckInvariants fails t for every rule a Result must obey whatever the
// snapshot:
//
//   - results are sorted by namespace, name and UID, one per Binding, and
//     obey conditionstest.CheckOutcomes (Owned holds ours only, Write
//     exactly when Skip is none);
//   - every list a result carries passes Vocabulary.Validate against the
//     Binding's generation (so no observedGeneration is above it);
//   - Ready is True exactly when Accepted, BackendReachable and
//     ChannelJoined are all present and True;
//   - a Binding that is not served carries Accepted and Ready only;
//   - a write is due only for a leader on the crds route;
//   - every message of ours obeys the message rule (one line, valid
//     UTF-8, at most 1024 bytes) and shows no text of an object in another
//     namespace (its spec, a Binding name there) and no raw probe error.
//     A message is not required to be redact-clean: the Binding's own
//     text is shown whole even where it looks like a secret.
//
// Other operators' tests may call it on their own snapshots, with a
// *testing.T, *testing.B, *testing.F or a *rapid.T.
func CheckInvariants(t TB, s binding.Snapshot, r binding.Result) {
	t.Helper()
	byUID := make(map[types.UID]*akv1.Binding, len(s.Bindings))
	for i := range s.Bindings {
		byUID[s.Bindings[i].UID] = &s.Bindings[i]
	}
	conditionstest.CheckOutcomes(t, binding.Vocabulary, r.Bindings)
	leaks := foreignTexts(s)
	seen := map[types.UID]bool{}
	for i := range r.Bindings {
		br := &r.Bindings[i]
		id := br.Namespace + "/" + br.Name
		if seen[br.UID] {
			t.Errorf("%s: two results for uid %s", id, br.UID)
		}
		seen[br.UID] = true
		b := byUID[br.UID]
		if b == nil {
			t.Errorf("%s: result for a uid the snapshot does not hold", id)
			continue
		}
		if br.Write && (!s.Broker.Leader || s.Broker.ConfigSource == binding.ConfigSourceConfigMap) {
			t.Errorf("%s: write due while standby or on the ConfigMap route", id)
		}
		if br.Skip == conditions.SkipStale {
			continue
		}
		checkConditions(t, id, b, br, leaks)
	}
}

// TB is the part of testing.TB that CheckInvariants uses; *rapid.T has it
// too.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

var _ TB = testing.TB(nil)

func checkConditions(t TB, id string, b *akv1.Binding, br *binding.Outcome, leaks map[string][]string) {
	t.Helper()
	for _, e := range binding.Vocabulary.Validate(br.Conditions, b.Generation, field.NewPath("status", "conditions")) {
		t.Errorf("%s: %v", id, e)
	}
	get := func(typ string) *metav1.Condition {
		for i := range br.Conditions {
			if br.Conditions[i].Type == typ {
				return &br.Conditions[i]
			}
		}
		return nil
	}
	acc, be, ch, rd := get(binding.TypeAccepted), get(binding.TypeBackendReachable), get(binding.TypeChannelJoined), get(binding.TypeReady)
	if acc == nil || rd == nil {
		t.Errorf("%s: Accepted or Ready missing", id)
		return
	}
	allTrue := acc.Status == metav1.ConditionTrue && be != nil && be.Status == metav1.ConditionTrue && ch != nil && ch.Status == metav1.ConditionTrue
	if (rd.Status == metav1.ConditionTrue) != allTrue {
		t.Errorf("%s: Ready is %s but the others all True is %v", id, rd.Status, allTrue)
	}
	if !br.Served && (be != nil || ch != nil) {
		t.Errorf("%s: not served but carries probe conditions", id)
	}
	for _, c := range br.Conditions {
		if !binding.Vocabulary.Has(c.Type) {
			continue
		}
		if c.ObservedGeneration > b.Generation {
			t.Errorf("%s: %s observedGeneration %d above generation %d", id, c.Type, c.ObservedGeneration, b.Generation)
		}
		if err := redact.Check(c.Message, redact.DefaultMaxBytes); err != nil {
			t.Errorf("%s: %s message breaks the message rule: %v", id, c.Type, err)
		}
		for _, leak := range leaks[b.Namespace] {
			if strings.Contains(c.Message, leak) {
				t.Errorf("%s: %s message %q shows %q, a text it may not show", id, c.Type, c.Message, leak)
			}
		}
	}
}

// foreignTexts lists, per namespace, the texts its Bindings' messages
// must not show: raw probe outputs, and the texts of other namespaces'
// objects that do not also occur in the namespace's own objects (a name
// both sides use is the reader's own text too).
func foreignTexts(s binding.Snapshot) map[string][]string {
	own := map[string]*strings.Builder{}
	texts := map[string][]string{}
	add := func(ns string, vs ...string) {
		if own[ns] == nil {
			own[ns] = &strings.Builder{}
		}
		for _, v := range vs {
			own[ns].WriteString(v)
			own[ns].WriteByte(0)
			if len(v) >= minLeak {
				texts[ns] = append(texts[ns], v)
			}
		}
	}
	for _, b := range s.Bindings {
		add(b.Namespace, b.Namespace, b.Name, b.Spec.Chat.Channel, b.Spec.Agent.BackendRef.Name, b.Spec.Agent.BackendRef.Namespace,
			b.Spec.Chat.ConnectionRef.Name, b.Spec.Chat.ConnectionRef.Namespace)
	}
	for _, b := range s.Backends {
		add(b.Namespace, b.Spec.URL, b.Spec.CardPath)
		add(b.Namespace, b.Spec.AllowedNamespaces...)
		if r := b.Spec.AuthSecretRef; r != nil {
			add(b.Namespace, r.Name, r.Key)
		}
	}
	for _, c := range s.Connections {
		add(c.Namespace, c.Spec.Platform, c.Spec.Broker)
		add(c.Namespace, c.Spec.AllowedNamespaces...)
		if r := c.Spec.TokenSecretRef; r != nil {
			add(c.Namespace, r.Name, r.Key)
		}
	}
	var probe []string
	for _, p := range s.Probes {
		if o := p.Backend; o != nil {
			probe = append(probe, o.Error, o.Failed, string(o.Body))
		}
		if o := p.Channel; o != nil {
			probe = append(probe, o.Error, o.Failed)
		}
	}
	out := map[string][]string{}
	namespaces := map[string]bool{}
	for _, b := range s.Bindings {
		namespaces[b.Namespace] = true
	}
	for ns := range namespaces {
		mine := ""
		if own[ns] != nil {
			mine = own[ns].String()
		}
		for other, vs := range texts {
			if other == ns {
				continue
			}
			for _, v := range vs {
				if !strings.Contains(mine, v) && !isVocabularyWord(v) {
					out[ns] = append(out[ns], v)
				}
			}
		}
		for _, v := range probe {
			if len(v) >= minLeak && !strings.Contains(mine, v) && !isVocabularyWord(v) {
				out[ns] = append(out[ns], v)
			}
		}
	}
	return out
}

// isVocabularyWord spares texts that our fixed sentences use anyway, such
// as an error kind ("refused") that is also a word of a probe message.
func isVocabularyWord(v string) bool {
	for _, typ := range binding.Vocabulary.Types() {
		for _, r := range typ.Reasons {
			if strings.Contains(binding.ProbeMessage(typ.Name, binding.Reason(r.Reason)), v) {
				return true
			}
		}
	}
	for _, w := range []string{"generation", "namespace", "is invalid", "not found", "does not allow"} {
		if strings.Contains(w, v) {
			return true
		}
	}
	return false
}

// Describe renders a result compactly for a failing test's log.
func Describe(r binding.Result) string {
	var b strings.Builder
	for _, br := range r.Bindings {
		fmt.Fprintf(&b, "%s/%s uid=%s gen=%d served=%v(%d) write=%v skip=%s\n", br.Namespace, br.Name, br.UID, br.Generation,
			br.Served, br.ServedGeneration, br.Write, br.Skip)
		for _, c := range br.Conditions {
			fmt.Fprintf(&b, "  %s %s %s g%d %q\n", c.Type, c.Status, c.Reason, c.ObservedGeneration, c.Message)
		}
	}
	return b.String()
}
