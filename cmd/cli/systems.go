package cli

import (
	"strings"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/system"
)

// find is the system of c named name; nil when there is none.
func (c *Command) find(name string) *system.System {
	s, err := system.Find(name, c.Systems...)
	if err != nil {
		return nil
	}
	return s
}

// systemNames lists the names of c's systems as a usage message says
// them: "binding or finops".
func (c *Command) systemNames() string { return orList(c.names()) }

// knownSystems lists the names of c's systems as an error lists them:
// "binding, finops".
func (c *Command) knownSystems() string { return strings.Join(c.names(), ", ") }

func (c *Command) names() []string {
	var out []string
	for _, s := range c.Systems {
		out = append(out, s.Name)
	}
	return out
}

// rules is the rule table of c's systems, the shared rules first.
func (c *Command) rules() []conditions.Rule { return conformance.Rules(c.Systems...) }

// vocabularies are the vocabularies of c's systems' kinds, in order.
func (c *Command) vocabularies() []*conditions.Vocabulary {
	return conformance.Vocabularies(c.Systems...)
}
