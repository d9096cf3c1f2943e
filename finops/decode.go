package finops

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/condengine/condengine/costjob"
	"github.com/condengine/condengine/manifest"
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
	raws, err := manifest.Split(data)
	if err != nil {
		return Snapshot{}, err
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
			manifest.Header
			Data map[string]string `json:"data"`
		}
		if err := json.Unmarshal(t, &head); err != nil {
			return fmt.Errorf("%s: %w", where, manifest.FieldError(err))
		}
		if head.Kind == "" {
			return fmt.Errorf("%s: field kind: missing", where)
		}
		if head.IsList() {
			items, err := manifest.Items(t)
			if err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			for i, item := range items {
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
		label := head.String()
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
			return fmt.Errorf("%s: %s: %w", where, label, manifest.FieldError(err))
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
