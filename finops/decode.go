package finops

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/util/yaml"

	"github.com/condengine/condengine/costjob"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/provider"
	"github.com/condengine/condengine/subscription"
)

// Group is the API group/version of the FinOps kinds.
const Group = "finops.stakater.com/v1alpha1"

// The OpenCost pricing ConfigMap: when a snapshot holds it, its
// default.json is the document OpenCost has now.
const (
	PricingConfigMap = "finops-operator-custom-pricing-configs"
	PricingKey       = "default.json"
)

// Decode reads manifests as kubectl prints them: YAML documents separated
// by ---, JSON, or a List of items. The FinOps kinds are decoded into
// their types; every other object is kept as an Other. Errors name the
// document (counting from 0), the list item when there is one, and the
// field.
func Decode(data []byte) (Snapshot, error) {
	d := yaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var raws []json.RawMessage
	for doc := 0; ; doc++ {
		var raw json.RawMessage
		err := d.Decode(&raw)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Snapshot{}, fmt.Errorf("document %d: %w", doc, err)
		}
		raws = append(raws, raw)
	}
	return DecodeObjects(raws)
}

// DecodeObjects is Decode for manifests already split into JSON
// documents, such as a scenario's objects.
func DecodeObjects(raws []json.RawMessage) (Snapshot, error) {
	var s Snapshot
	seen := map[Object]string{}
	var add func(where string, raw json.RawMessage) error
	add = func(where string, raw json.RawMessage) error {
		t := bytes.TrimSpace(raw)
		if len(t) == 0 || bytes.Equal(t, []byte("null")) {
			return nil // an empty document, e.g. after a trailing ---
		}
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Namespace string `json:"namespace"`
				Name      string `json:"name"`
			} `json:"metadata"`
			Items []json.RawMessage `json:"items"`
			Data  map[string]string `json:"data"`
		}
		if err := json.Unmarshal(t, &head); err != nil {
			return fmt.Errorf("%s: %w", where, fieldError(err))
		}
		if head.Kind == "" {
			return fmt.Errorf("%s: field kind: missing", where)
		}
		if strings.HasSuffix(head.Kind, "List") && head.Metadata.Name == "" {
			for i, item := range head.Items {
				if err := add(fmt.Sprintf("%s item %d", where, i), item); err != nil {
					return err
				}
			}
			return nil
		}
		if head.Metadata.Name == "" {
			return fmt.Errorf("%s: %s: field metadata.name: missing", where, head.Kind)
		}
		id := Object{APIVersion: head.APIVersion, Kind: head.Kind, Namespace: head.Metadata.Namespace, Name: head.Metadata.Name}
		label := head.Kind + " " + joinName(id.Namespace, id.Name)
		if first, dup := seen[id]; dup {
			return fmt.Errorf("%s: %s is listed again (first in %s)", where, label, first)
		}
		seen[id] = where
		var err error
		switch {
		case id.APIVersion == Group && id.Kind == pricebook.Kind:
			var b pricebook.PriceBook
			if err = json.Unmarshal(t, &b); err == nil {
				s.PriceBooks = append(s.PriceBooks, b)
			}
		case id.APIVersion == Group && id.Kind == offering.Kind:
			var o offering.Offering
			if err = json.Unmarshal(t, &o); err == nil {
				s.Offerings = append(s.Offerings, o)
			}
		case id.APIVersion == Group && id.Kind == subscription.Kind:
			var x subscription.Subscription
			if err = json.Unmarshal(t, &x); err == nil {
				s.Subscriptions = append(s.Subscriptions, x)
			}
		case id.APIVersion == Group && id.Kind == costjob.Kind:
			var j costjob.CostJob
			if err = json.Unmarshal(t, &j); err == nil {
				s.CostJobs = append(s.CostJobs, j)
			}
		case id.APIVersion == Group && id.Kind == provider.Kind:
			var p provider.FinOpsProvider
			if err = json.Unmarshal(t, &p); err == nil {
				s.Providers = append(s.Providers, p)
			}
		default:
			if id.Kind == "ConfigMap" && id.Name == PricingConfigMap {
				if doc, ok := head.Data[PricingKey]; ok {
					if err = json.Unmarshal([]byte(doc), &s.PricingDocument); err != nil {
						err = fmt.Errorf("field data[%q]: %w", PricingKey, err)
					}
				}
			}
			s.Others = append(s.Others, id)
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %w", where, label, fieldError(err))
		}
		return nil
	}
	for i, raw := range raws {
		if err := add(fmt.Sprintf("document %d", i), raw); err != nil {
			return Snapshot{}, err
		}
	}
	return s, nil
}

// fieldError rewrites a JSON type error so that it leads with the field
// path, which is what a reader of a manifest needs first.
func fieldError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("field %s: cannot hold a JSON %s (want %s)", te.Field, te.Value, te.Type)
	}
	return err
}

func joinName(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}
