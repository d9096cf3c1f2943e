package main

import (
	"strings"
	"sync"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/system"
)

// seedSystems are the systems this command knows, made once: the two
// seed systems of the module.
var seedSystems = sync.OnceValue(conformance.SeedSystems)

// findSystem is the system of seedSystems named name; nil when there is
// none.
func findSystem(name string) *system.System {
	s, err := system.Find(name, seedSystems()...)
	if err != nil {
		return nil
	}
	return s
}

// systemNames lists the names of seedSystems as a usage message says
// them: "binding or finops".
func systemNames() string {
	names := names()
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// knownSystems lists the names of seedSystems as an error lists them:
// "binding, finops".
func knownSystems() string { return strings.Join(names(), ", ") }

func names() []string {
	var out []string
	for _, s := range seedSystems() {
		out = append(out, s.Name)
	}
	return out
}
