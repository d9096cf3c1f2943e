package cli

import (
	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

// akObjects gathers the Agent Kourier objects of a stream, from
// documents decoded straight into them (manifest.Reader.NextTyped) and
// from documents read in full (binding.DecodeDocument) alike: each
// document's objects go to one first, and to the stream's objects once
// the document is read without a problem.
type akObjects struct {
	objs   binding.Objects // Backends and Connections; Bindings wait in chunks
	chunks bindingChunks
	in     *interner
	one    binding.Objects
	kept   int // documents kept
}

func newAKObjects() *akObjects {
	return &akObjects{in: newInterner()}
}

// slot hands out where an Agent Kourier object of the served version
// is decoded; other objects take the full reading.
func (a *akObjects) slot(apiVersion, kind string) any {
	if apiVersion != akv1.APIVersion {
		return nil
	}
	o := &a.one
	switch kind {
	case akv1.KindBinding:
		o.Bindings = append(o.Bindings, akv1.Binding{})
		return &o.Bindings[len(o.Bindings)-1]
	case akv1.KindAgentBackend:
		o.Backends = append(o.Backends, akv1.AgentBackend{})
		return &o.Backends[len(o.Backends)-1]
	case akv1.KindChatConnection:
		o.Connections = append(o.Connections, akv1.ChatConnection{})
		return &o.Connections[len(o.Connections)-1]
	}
	return nil
}

// keep moves the objects of the document just read to the stream's.
func (a *akObjects) keep() {
	o := &a.one
	for i := range o.Bindings {
		a.in.binding(&o.Bindings[i])
		a.chunks.add(&o.Bindings[i])
	}
	a.objs.Backends = append(a.objs.Backends, o.Backends...)
	a.objs.Connections = append(a.objs.Connections, o.Connections...)
	a.kept++
	a.reset()
}

// reset empties the document's objects, keeping room for the next
// unless it is as large as a whole List.
func (a *akObjects) reset() {
	o := &a.one
	if cap(o.Bindings) > chunkLen {
		o.Bindings = nil
	}
	o.Bindings, o.Backends, o.Connections = o.Bindings[:0], o.Backends[:0], o.Connections[:0]
}
