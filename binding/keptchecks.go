package binding

import (
	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// The broker's checks on a spec (speccheck.go) read the spec and nothing
// else. A scratch kept from pass to pass notes, by position, the spec
// each check last ran on, as a copy the host cannot write into, and its
// answer: a spec equal to the noted one in every field gets the noted
// answer. Equal strings of an unchanged object share their bytes, so the
// comparison is mostly pointer checks, where the checks walk every byte
// of every name, URL and channel.

// keptChecks are the last pass's checks, by position in each list.
type keptChecks struct {
	bindings []checkedBinding
	backends []checkedBackend
	conns    []checkedConn
}

type checkedBinding struct {
	spec  akv1.BindingSpec // all strings: a copy cannot be written into
	check specCheck
	set   bool
}

type checkedBackend struct {
	spec     akv1.AgentBackendSpec // its pointer and list are the copy's own
	secret   akv1.SecretKeyRef
	problems problems
	set      bool
}

type checkedConn struct {
	spec     akv1.ChatConnectionSpec // its pointer and list are the copy's own
	secret   akv1.SecretKeyRef
	problems problems
	set      bool
}

// sized makes each list as long as the snapshot's, dropping them all
// when one is of another length (the positions no longer match).
func (k *keptChecks) sized(s *Snapshot) {
	if len(k.bindings) != len(s.Bindings) || len(k.backends) != len(s.Backends) || len(k.conns) != len(s.Connections) {
		k.bindings = reuse(k.bindings, len(s.Bindings))
		k.backends = reuse(k.backends, len(s.Backends))
		k.conns = reuse(k.conns, len(s.Connections))
	}
}

// bindingCheck is checkBinding(spec) for the Binding at position i.
func (sc *scratch) bindingCheck(i int, spec *akv1.BindingSpec) specCheck {
	if sc.carry == nil {
		return checkBinding(spec)
	}
	k := &sc.carry.checks.bindings[i]
	if !k.set || k.spec != *spec {
		*k = checkedBinding{spec: *spec, check: checkBinding(spec), set: true}
	}
	return k.check
}

// backendCheck is checkBackend(spec) for the AgentBackend at position i.
func (sc *scratch) backendCheck(i int, spec *akv1.AgentBackendSpec) problems {
	if sc.carry == nil {
		return checkBackend(spec)
	}
	k := &sc.carry.checks.backends[i]
	if !k.set || !sameBackendSpec(&k.spec, spec) {
		k.spec.URL, k.spec.CardPath = spec.URL, spec.CardPath
		k.spec.AuthSecretRef = ownSecret(&k.secret, spec.AuthSecretRef)
		k.spec.AllowedNamespaces = ownList(k.spec.AllowedNamespaces, spec.AllowedNamespaces)
		k.problems, k.set = checkBackend(spec), true
	}
	return k.problems
}

// connCheck is checkConnection(spec) for the ChatConnection at position
// i.
func (sc *scratch) connCheck(i int, spec *akv1.ChatConnectionSpec) problems {
	if sc.carry == nil {
		return checkConnection(spec)
	}
	k := &sc.carry.checks.conns[i]
	if !k.set || !sameConnSpec(&k.spec, spec) {
		k.spec.Platform, k.spec.Broker = spec.Platform, spec.Broker
		k.spec.TokenSecretRef = ownSecret(&k.secret, spec.TokenSecretRef)
		k.spec.AllowedNamespaces = ownList(k.spec.AllowedNamespaces, spec.AllowedNamespaces)
		k.problems, k.set = checkConnection(spec), true
	}
	return k.problems
}

// ownSecret copies *r into *into and points at the copy; nil stays nil.
func ownSecret(into *akv1.SecretKeyRef, r *akv1.SecretKeyRef) *akv1.SecretKeyRef {
	if r == nil {
		return nil
	}
	*into = *r
	return into
}

// ownList copies list into buf's array, which nothing else holds.
func ownList(buf, list []string) []string { return append(buf[:0], list...) }
