package binding

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/manifest"
)

// Objects are decoded manifests, by kind, in the order they were read.
type Objects struct {
	Bindings    []akv1.Binding
	Backends    []akv1.AgentBackend
	Connections []akv1.ChatConnection
	// Skipped counts documents of other API groups, which the broker does
	// not read.
	Skipped int
}

// DefaultIdentity gives objects read from hand-written manifests what
// the API server gives every object it stores and the engine needs: a
// uid where none is set, derived from the kind, namespace and name
// ("manifest:Binding:team-a/chat"), so the same input gives the same uid
// at every run; and generation 1 where none is set. What a manifest sets
// is kept. Objects read from a cluster have both already.
func (o *Objects) DefaultIdentity() {
	for i := range o.Bindings {
		defaultIdentity(akv1.KindBinding, &o.Bindings[i].ObjectMeta)
	}
	for i := range o.Backends {
		defaultIdentity(akv1.KindAgentBackend, &o.Backends[i].ObjectMeta)
	}
	for i := range o.Connections {
		defaultIdentity(akv1.KindChatConnection, &o.Connections[i].ObjectMeta)
	}
}

func defaultIdentity(kind string, m *metav1.ObjectMeta) {
	if m.UID == "" {
		m.UID = types.UID("manifest:" + kind + ":" + m.Namespace + "/" + m.Name)
	}
	if m.Generation == 0 {
		m.Generation = 1
	}
}

// ErrStatusInFile refuses a Binding file on the ConfigMap route that sets
// status: only the broker may say what became of a Binding.
var ErrStatusInFile = errors.New("status: a file may not set it, remove it")

// Decode reads a stream of YAML or JSON manifests (YAML documents split by
// "---"), within manifest's limits. Lists are expanded, nested Lists too.
// Documents of other API groups are counted and skipped; an Agent
// Kourier document of an unknown kind or version, with a field the kind
// does not have or of the wrong type, or naming an object already read,
// is a *manifest.DocumentError that names the document, the field and its line.
// Every bad document is reported, joined.
func Decode(raw []byte) (Objects, error) {
	return DecodeStream(manifest.NewReader(bytes.NewReader(raw)))
}

// DecodeStream is Decode for a manifest.Reader, such as one over a file
// (set its File to have errors name it). The stream is read one document
// at a time; only the decoded objects are kept. A problem reading the
// stream (a limit, text that is not YAML) ends it.
func DecodeStream(r *manifest.Reader) (Objects, error) {
	var out Objects
	err := manifest.Each(r, func(d *manifest.Document) error { return DecodeDocument(&out, d) })
	return out, err
}

// DecodeObjects decodes manifests already split and converted to JSON,
// such as a scenario's objects; raws[i] is document i+1, and an empty
// or null one is passed over. Lists are expanded. Every bad document is
// reported, joined.
func DecodeObjects(raws []json.RawMessage) (Objects, error) {
	var out Objects
	err := manifest.EachJSON(raws, func(d *manifest.Document) error { return DecodeDocument(&out, d) })
	return out, err
}

// DecodeDocument decodes one document that is not a List into out: an
// Agent Kourier kind is appended to its slice, a document of another
// group counted in Skipped. The error is a *manifest.DocumentError.
func DecodeDocument(out *Objects, d *manifest.Document) error {
	h, err := d.Identify()
	if err != nil {
		return d.Fail(err)
	}
	if h.Kind == "" {
		return d.Fail(errors.New("kind: required"))
	}
	group, version, _ := strings.Cut(h.APIVersion, "/")
	if h.APIVersion == "" {
		return d.Fail(errors.New("apiVersion: required"))
	}
	if group != akv1.GroupName {
		out.Skipped++
		return nil
	}
	if version != akv1.Version {
		return d.FailAt("apiVersion", fmt.Errorf("apiVersion: %q is not served; use %s", h.APIVersion, akv1.APIVersion))
	}
	switch h.Kind {
	case akv1.KindBinding:
		var o akv1.Binding
		if err := d.Unmarshal(&o); err != nil {
			return err
		}
		out.Bindings = append(out.Bindings, o)
	case akv1.KindAgentBackend:
		var o akv1.AgentBackend
		if err := d.Unmarshal(&o); err != nil {
			return err
		}
		out.Backends = append(out.Backends, o)
	case akv1.KindChatConnection:
		var o akv1.ChatConnection
		if err := d.Unmarshal(&o); err != nil {
			return err
		}
		out.Connections = append(out.Connections, o)
	default:
		return d.FailAt("kind", fmt.Errorf("kind: %q is not a kind of %s (want %s, %s or %s)",
			h.Kind, akv1.GroupName, akv1.KindBinding, akv1.KindAgentBackend, akv1.KindChatConnection))
	}
	return nil
}

// ValidateConfigMapFile checks a Binding file for the ConfigMap route:
// besides decoding, no Binding may set status. Every bad document is
// reported; errors.Is(err, ErrStatusInFile) tells the status refusal.
func ValidateConfigMapFile(raw []byte) error {
	var out Objects
	return manifest.Each(manifest.NewReader(bytes.NewReader(raw)), func(d *manifest.Document) error {
		if err := DecodeDocument(&out, d); err != nil {
			return err
		}
		return statusInFile(d)
	})
}

// statusInFile refuses a Binding document that sets status.
func statusInFile(d *manifest.Document) error {
	if d.Header == nil || d.Header.Kind != akv1.KindBinding || d.Header.Group() != akv1.GroupName {
		return nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(d.JSON, &top) != nil {
		return nil
	}
	if st, ok := top["status"]; ok && !bytes.Equal(bytes.TrimSpace(st), []byte("null")) {
		return d.FailAt("status", ErrStatusInFile)
	}
	return nil
}
