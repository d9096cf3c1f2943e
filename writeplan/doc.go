// Package writeplan turns an outcome into the exact requests that make
// the API server store it, as data: no client, no clock, nothing carried
// out. A host reads the object, evaluates, asks For for a plan and sends
// its requests in order with whatever client it has.
//
// The package knows no kind. A host declares each kind it writes once,
// with its field manager, and passes that to every For:
//
//	var bindingWrites = writeplan.Options{
//		FieldManager: "agent-kourier",
//		Kind:         writeplan.Kind{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding},
//	}
//
//	plan, err := writeplan.For(obj, &o.Outcome, o.Status, bindingWrites)
//
// Kind.Finalizer names the finalizer the host manages on the kind, if
// any; an outcome that adds or removes a finalizer of a kind declared
// without one is refused, as is an outcome of another kind.
//
// What a plan guarantees, for an outcome that writes:
//
//  1. Our conditions end up exactly the outcome's Owned: each is applied
//     with server-side apply under the host's field manager (forced, so a
//     stale value another manager wrote is taken over). The first request
//     carries the resourceVersion read and each later one is guarded by
//     the resourceVersion the previous one answered (Request.AfterPrevious),
//     so no request lands on an object that changed (or was made again)
//     behind the host's back.
//  2. A condition type the outcome dropped is removed even when another
//     manager also owns it (an older writer's update, a kubectl edit): an
//     apply alone only gives up our ownership and would leave it standing.
//     That removal is a JSON patch guarded by the resourceVersion read, so
//     it fails with a conflict rather than remove a write it never saw.
//  3. Every other writer's condition is left as it is.
//  4. A finalizer change comes last, after the status write: releasing a
//     deleted object's last finalizer deletes it, and a status write after
//     that would fail.
//  5. Every body reads the same as JSON and as YAML, which is how an API
//     server reads an apply: a character YAML readers refuse (DEL, the C1
//     controls U+0080–U+009F, the noncharacters U+FFFE and U+FFFF) or
//     read otherwise (NEL) is written as a \u escape, never dropped or
//     replaced, so a rate or message holding one is stored as it is.
//
// When a request fails, the host stops, reads again and plans again; a
// plan is only valid for the object it was made from.
//
// Transitions lists what changed between the conditions read and written,
// for Events and metrics. The retry helper is conditions.Outcome's
// RequeueAfter.
package writeplan
