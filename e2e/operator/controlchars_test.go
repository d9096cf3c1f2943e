package operator_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/e2e/internal/kube"
	"github.com/condengine/condengine/examples/ctrlplan"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/writeplan"
)

// odd holds characters the API server's YAML reader refuses in an apply
// body (a C1 control, DEL, a noncharacter) or reads as a line break
// (NEL).
const odd = "0.5\u009c\u007f\u0085\uffff"

// TestControlCharacters_StatusApplyStoredAsWritten: a condition message
// and a percent book's rate (in status.activePricing) holding characters
// the server's apply reader refuses reach the real server through a
// write plan and are stored as written. The same status encoded by
// encoding/json alone is refused.
func TestControlCharacters_StatusApplyStoredAsWritten(t *testing.T) {
	e := newEnv(t)
	ns := "control-characters"
	e.Kubectl("", "create", "namespace", ns)
	c := e.planClient()

	_, err := e.Dyn.Resource(kube.Bindings).Namespace(ns).Create(e.Ctx, kube.Binding(ns, "odd", "echo", "slack", "C1"),
		metav1.CreateOptions{FieldManager: "e2e-user"})
	require.NoError(t, err)
	b := &akv1.Binding{}
	require.NoError(t, c.Get(e.Ctx, client.ObjectKey{Namespace: ns, Name: "odd"}, b))
	ready := planCond("Ready", "False", "AgentNotFound")
	ready.Message = "agent card name " + odd
	e.writeOutcome(c, b, []metav1.Condition{planCond("Accepted", "True", "OK"), ready})
	require.NoError(t, c.Get(e.Ctx, client.ObjectKeyFromObject(b), b))
	var got string
	for _, x := range b.Status.Conditions {
		if x.Type == "Ready" {
			got = x.Message
		}
	}
	assert.Equal(t, ready.Message, got, "the message as written")

	book := &finopsv1.PriceBook{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "percent"},
		Spec: finopsv1.PriceBookSpec{Currency: "USD", ValuationMode: finopsv1.ValuationPercent, Rates: &finopsv1.Rates{CPUHour: odd}}}
	require.NoError(t, c.Create(e.Ctx, book, client.FieldOwner("e2e-user")))
	// The book is written Active below; left behind, it would be the
	// incumbent of every later election on this server (the election is
	// cluster-wide), and a later test's newest book would never win.
	t.Cleanup(func() { _ = c.Delete(e.Ctx, book) })
	owned := []metav1.Condition{planCond("Ready", "True", "ValidationSucceeded")}
	st := finopsv1.PriceBookStatus{Active: true, Ready: metav1.ConditionTrue, Conditions: owned,
		ActivePricing: map[string]string{"CPU": odd, "provider": "custom"}}
	o := &conditions.Outcome{Kind: finopsv1.KindPriceBook, Namespace: ns, Name: book.Name, UID: book.UID,
		Conditions: owned, Owned: owned, Write: true}
	p, err := writeplan.For(book, o, st, writeplan.Options{FieldManager: "finops-operator", Kind: writeplan.Kind{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindPriceBook}})
	require.NoError(t, err)
	require.NoError(t, ctrlplan.Carry(e.Ctx, c, book, p))
	stored := &finopsv1.PriceBook{}
	require.NoError(t, c.Get(e.Ctx, client.ObjectKeyFromObject(book), stored))
	assert.Equal(t, st.ActivePricing, stored.Status.ActivePricing, "the rate as written")

	// The same apply, its body from encoding/json alone: the server's
	// YAML reader refuses it.
	raw, err := json.Marshal(map[string]any{"apiVersion": finopsv1.APIVersion, "kind": finopsv1.KindPriceBook,
		"metadata": map[string]any{"namespace": ns, "name": book.Name},
		"status":   map[string]any{"activePricing": map[string]string{"CPU": odd + "!"}}})
	require.NoError(t, err)
	err = c.Status().Patch(e.Ctx, stored, client.RawPatch(types.ApplyPatchType, raw), client.FieldOwner("finops-operator"), client.ForceOwnership)
	require.Error(t, err, "a raw C1 control in an apply body")
	assert.True(t, apierrors.IsBadRequest(err), "refused as a bad request: %v", err)
	assert.ErrorContains(t, err, "control characters")
}

// TestControlCharacters_PricingConfigMapStoredAsWritten: the OpenCost
// pricing document of a percent book whose rate holds characters the
// server's apply reader refuses, written with finops.PricingData into a
// ConfigMap applied as the example host does (controller-runtime's
// Apply), is stored, and reads back as the document.
func TestControlCharacters_PricingConfigMapStoredAsWritten(t *testing.T) {
	e := newEnv(t)
	ns := "control-characters-doc"
	e.Kubectl("", "create", "namespace", ns)
	doc := map[string]string{"CPU": odd, "provider": "custom", "description": "Pricebook from: percent"}
	data, err := finops.PricingData(doc)
	require.NoError(t, err)

	apply := func(data string) error {
		u := &unstructured.Unstructured{Object: map[string]any{"data": map[string]any{finops.PricingKey: data}}}
		u.SetAPIVersion("v1")
		u.SetKind("ConfigMap")
		u.SetNamespace(ns)
		u.SetName(finops.PricingConfigMap)
		return e.cl.Apply(e.Ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("finops-operator"), client.ForceOwnership)
	}
	require.NoError(t, apply(data))
	cm := &unstructured.Unstructured{}
	cm.SetAPIVersion("v1")
	cm.SetKind("ConfigMap")
	require.NoError(t, e.cl.Get(e.Ctx, client.ObjectKey{Namespace: ns, Name: finops.PricingConfigMap}, cm))
	text, _, _ := unstructured.NestedString(cm.Object, "data", finops.PricingKey)
	var got map[string]string
	require.NoError(t, json.Unmarshal([]byte(text), &got))
	assert.Equal(t, doc, got, "the document as written")

	// The document from encoding/json alone carries the characters raw,
	// and the server's YAML reader refuses the ConfigMap's apply.
	raw, err := json.Marshal(doc)
	require.NoError(t, err)
	err = apply(string(raw))
	require.Error(t, err, "a raw C1 control in an apply body")
	assert.ErrorContains(t, err, "control characters")
}
