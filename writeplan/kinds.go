package writeplan

import (
	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// kind is what a plan needs to know of a kind beyond the object read:
// the apiVersion of its apply bodies and its finalizer, if any.
type kind struct {
	apiVersion string
	kind       string
	finalizer  string
}

// kinds are the module's kinds by name.
var kinds = func() map[string]kind {
	ak, fo := akv1.GroupVersion.String(), finopsv1.GroupVersion.String()
	out := map[string]kind{}
	for _, k := range []kind{
		{apiVersion: ak, kind: akv1.KindBinding},
		{apiVersion: ak, kind: akv1.KindAgentBackend},
		{apiVersion: ak, kind: akv1.KindChatConnection},
		{apiVersion: fo, kind: finopsv1.KindPriceBook},
		{apiVersion: fo, kind: finopsv1.KindOffering, finalizer: finopsv1.OfferingFinalizer},
		{apiVersion: fo, kind: finopsv1.KindSubscription, finalizer: finopsv1.SubscriptionFinalizer},
		{apiVersion: fo, kind: finopsv1.KindCostJob},
		{apiVersion: fo, kind: finopsv1.KindFinOpsProvider},
	} {
		out[k.kind] = k
	}
	return out
}()
