package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/redact"
)

// The config sources a broker block may name.
const (
	ConfigSourceCRDs      = "crds"
	ConfigSourceConfigMap = "configmap"
)

// The sources of a collection result.
const (
	SourceDB         = "db"
	SourceCalculator = "calculator"
	SourceError      = "error"
)

// Validate reports the first thing in f that the format does not allow,
// by its path in the file (`probes[2].binding: "chat" is not
// namespace/name`). Parse calls it, so a runner given a parsed File
// only turns it into its own types; the runners of this module call it
// too, for a File built by hand.
func (f *File) Validate() error {
	switch {
	case strings.TrimSpace(f.Name) == "":
		return errors.New("name is required")
	case strings.ContainsAny(f.Name, "\r\n"):
		return errors.New("name must be one line")
	case strings.TrimSpace(f.System) == "":
		return errors.New("system is required")
	case strings.ContainsAny(f.System, "\r\n"):
		return errors.New("system must be one line")
	case f.Now.IsZero():
		return errors.New("now is required")
	}
	if t := bytes.TrimSpace(f.Observed); len(t) > 0 && t[0] != '{' && !bytes.Equal(t, []byte("null")) {
		return fmt.Errorf("observed: the block holds %s, not a mapping of keys", jsonKind(t))
	}
	if b := f.Broker; b != nil {
		switch b.ConfigSource {
		case "", ConfigSourceCRDs, ConfigSourceConfigMap:
		default:
			return fmt.Errorf("broker.configSource: %q is not crds or configmap", b.ConfigSource)
		}
	}
	for i, e := range f.Served {
		switch e.Kind {
		case akv1.KindBinding, akv1.KindAgentBackend, akv1.KindChatConnection:
		default:
			return fmt.Errorf("served[%d]: kind: %q is not %s, %s or %s", i, e.Kind,
				akv1.KindBinding, akv1.KindAgentBackend, akv1.KindChatConnection)
		}
	}
	for i, p := range f.Probes {
		if _, _, ok := SplitName(p.Binding); !ok {
			return fmt.Errorf("probes[%d]: binding: %q is not namespace/name", i, p.Binding)
		}
		if err := p.validate(); err != nil {
			return fmt.Errorf("probes[%d].%w", i, err)
		}
	}
	if err := f.Writer.Validate(); err != nil {
		return err
	}
	if err := f.Prober.Validate(); err != nil {
		return err
	}
	if err := f.Collection.Validate(); err != nil {
		return err
	}
	for i, e := range f.Expect {
		if e.Kind == "" || e.Name == "" {
			return fmt.Errorf("expect[%d]: kind and name are required", i)
		}
		if e.RetryAt != nil && *e.RetryAt != RetryNone {
			if _, err := time.Parse(time.RFC3339Nano, *e.RetryAt); err != nil {
				return fmt.Errorf("expect[%d].retryAt: %q is neither an RFC 3339 instant nor %s", i, redact.Clip(*e.RetryAt, 64), RetryNone)
			}
		}
		for j, c := range e.ConditionsInclude {
			switch {
			case c.Type == "":
				return fmt.Errorf("expect[%d].conditionsInclude[%d].type is required", i, j)
			case slices.ContainsFunc(e.ConditionsInclude[:j], func(x ExpectedCondition) bool { return x.Type == c.Type }):
				return fmt.Errorf("expect[%d].conditionsInclude[%d]: type %s is listed twice", i, j, c.Type)
			}
		}
	}
	return nil
}

// Validate reports a result whose subscription is not namespace/name or
// whose source is not db, calculator or error, by its path in the file.
// A nil block is valid.
func (c *Collection) Validate() error {
	if c == nil {
		return nil
	}
	for i, r := range c.Results {
		if _, _, ok := SplitName(r.Subscription); !ok {
			return fmt.Errorf("collection.results[%d].subscription: %q is not namespace/name", i, r.Subscription)
		}
		switch r.Source {
		case SourceDB, SourceCalculator, SourceError:
		default:
			return fmt.Errorf("collection.results[%d].source: %q is not db, calculator or error", i, r.Source)
		}
	}
	return nil
}

// SplitName splits the "namespace/name" the format uses to name an
// object of another block; ok is false unless both parts are there and
// the name holds no further slash.
func SplitName(s string) (namespace, name string, ok bool) {
	namespace, name, ok = strings.Cut(s, "/")
	if !ok || namespace == "" || name == "" || strings.Contains(name, "/") {
		return "", "", false
	}
	return namespace, name, true
}

// validate refuses the negative numbers a probe cannot have observed: a
// generation, an HTTP status, a card's size, a Retry-After.
func (p Probe) validate() error {
	if p.Generation < 0 {
		return fmt.Errorf("generation: %d must not be negative", p.Generation)
	}
	for _, o := range []struct {
		key string
		obs *Observation
	}{{"backend", p.Backend}, {"channel", p.Channel}} {
		switch {
		case o.obs == nil:
		case o.obs.HTTP < 0:
			return fmt.Errorf("%s.http: %d is not an HTTP status", o.key, o.obs.HTTP)
		case o.obs.CardBytes < 0:
			return fmt.Errorf("%s.cardBytes: %d must not be negative", o.key, o.obs.CardBytes)
		case o.obs.RetryAfter < 0:
			return fmt.Errorf("%s.retryAfter: %d must not be negative", o.key, o.obs.RetryAfter)
		}
	}
	return nil
}

// positive refuses a limit of zero or less, named by its path.
func positive(path string, d *metav1.Duration) error {
	if d != nil && d.Duration <= 0 {
		return fmt.Errorf("%s: %s must be positive", path, d.Duration)
	}
	return nil
}

// atLeastOne refuses a count limit below one, named by its path.
func atLeastOne(path string, n *int) error {
	if n != nil && *n < 1 {
		return fmt.Errorf("%s: %d must be at least 1", path, *n)
	}
	return nil
}
