package finops

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/manifest"
)

// The OpenCost pricing ConfigMap: when a snapshot holds it, its
// default.json is the document OpenCost has now.
const (
	PricingConfigMap = "finops-operator-custom-pricing-configs"
	PricingKey       = "default.json"
)

// Decode reads manifests as kubectl prints them: YAML documents separated
// by ---, JSON, or a List of items (nested Lists too), within manifest's
// limits. The FinOps kinds are decoded into their types as strictly as
// `kubectl apply --validate=strict`; every other object is kept as an
// Other. A document of the FinOps group with a kind or version it does
// not serve is an error, as is a second object with the group, kind,
// namespace and name of an earlier one. Errors are *manifest.DocumentError
// values naming the document (counting from 1), the List item, the field
// and its line; every bad document is reported, joined.
func Decode(data []byte) (Snapshot, error) {
	return DecodeStream(manifest.NewReader(bytes.NewReader(data)))
}

// DecodeStream is Decode for a manifest.Reader, such as one over a file
// (set its File to have errors name it). The stream is read one document
// at a time; a problem reading it (a limit, text that is not YAML) ends
// it.
func DecodeStream(r *manifest.Reader) (Snapshot, error) {
	var s Snapshot
	if err := manifest.Each(r, func(d *manifest.Document) error { return DecodeDocument(&s, d) }); err != nil {
		return Snapshot{}, err
	}
	return s, nil
}

// DecodeObjects is Decode for manifests already split into JSON
// documents, such as a scenario's objects; raws[i] is document i+1.
func DecodeObjects(raws []json.RawMessage) (Snapshot, error) {
	var s Snapshot
	if err := manifest.EachJSON(raws, func(d *manifest.Document) error { return DecodeDocument(&s, d) }); err != nil {
		return Snapshot{}, err
	}
	return s, nil
}

// Kinds are the kinds of the FinOps API group, in the order the operator
// documents them.
var Kinds = []string{finopsv1.KindPriceBook, finopsv1.KindOffering, finopsv1.KindSubscription, finopsv1.KindCostJob, finopsv1.KindFinOpsProvider}

// DecodeDocument decodes one document that is not a List into s: a
// FinOps kind into its slice, any other object into Objects. It does not
// look for an earlier object of the same name; a caller reading a stream
// does that with manifest.Each or Document.ExpandNew. The error is a
// *manifest.DocumentError.
func DecodeDocument(s *Snapshot, d *manifest.Document) error {
	h, err := d.Identify()
	if err != nil {
		return d.Fail(err)
	}
	if h.Kind == "" {
		return d.Fail(errors.New("kind: required"))
	}
	if h.Metadata.Name == "" {
		return d.Fail(errors.New("metadata.name: required"))
	}
	id := ObjectRef{APIVersion: h.APIVersion, Kind: h.Kind, Namespace: h.Metadata.Namespace, Name: h.Metadata.Name}
	if h.Group() == finopsv1.GroupName {
		if h.APIVersion != finopsv1.APIVersion {
			return d.FailAt("apiVersion", fmt.Errorf("apiVersion: %q is not served; use %s", h.APIVersion, finopsv1.APIVersion))
		}
		switch h.Kind {
		case finopsv1.KindPriceBook:
			return decodeInto(d, &s.PriceBooks)
		case finopsv1.KindOffering:
			return decodeInto(d, &s.Offerings)
		case finopsv1.KindSubscription:
			return decodeInto(d, &s.Subscriptions)
		case finopsv1.KindCostJob:
			return decodeInto(d, &s.CostJobs)
		case finopsv1.KindFinOpsProvider:
			return decodeInto(d, &s.Providers)
		}
		return d.FailAt("kind", fmt.Errorf("kind: %q is not a kind of %s (want %s)", h.Kind, finopsv1.GroupName, strings.Join(Kinds, ", ")))
	}
	if id.Kind == "ConfigMap" && id.Name == PricingConfigMap {
		var cm struct {
			Data map[string]string `json:"data"`
		}
		if err := d.RepeatedField(&cm); err != nil {
			return err
		}
		if err := json.Unmarshal(d.JSON, &cm); err != nil {
			return d.Fail(manifest.FieldError(err))
		}
		if doc, ok := cm.Data[PricingKey]; ok {
			if err := decodePricing([]byte(doc), &s.PricingDocument); err != nil {
				return d.FailAt("data", fmt.Errorf("data[%q]: %w", PricingKey, err))
			}
		}
	}
	s.Objects = append(s.Objects, id)
	return nil
}

// decodePricing reads the pricing document doc into into, refusing a
// key given twice as a manifest's is. Its keys are entries of a map,
// so CPU and cpu are two keys.
func decodePricing(doc []byte, into *map[string]string) error {
	if err := json.Unmarshal(doc, into); err != nil {
		return manifest.FieldError(err)
	}
	return manifest.DuplicateKey(doc)
}

// decodeInto decodes d strictly and appends it to list.
func decodeInto[T any](d *manifest.Document, list *[]T) error {
	var v T
	if err := d.Unmarshal(&v); err != nil {
		return err
	}
	*list = append(*list, v)
	return nil
}
