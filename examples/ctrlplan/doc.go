// Package ctrlplan carries out a writeplan.Plan with a controller-runtime
// client, and builds controller-runtime's fake client so that it does
// server-side apply for the module's kinds as the API server does.
//
// A reconciler that has an outcome o for the object obj it read:
//
//	plan, err := writeplan.For(obj, &o.Outcome, o.Status, writeplan.Options{
//		FieldManager: "agent-kourier",
//		Kind:         writeplan.Kind{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding},
//	})
//	if err != nil {
//		return ctrl.Result{}, err
//	}
//	if err := ctrlplan.Carry(ctx, c, obj, plan); err != nil {
//		return ctrl.Result{}, err // a conflict: read again, plan again
//	}
//	return ctrl.Result{RequeueAfter: o.RequeueAfter(now)}, nil
//
// A test gets a fake client with real managed fields in one line:
//
//	c := ctrlplan.NewFakeClientBuilder().WithObjects(objs...).Build()
package ctrlplan
