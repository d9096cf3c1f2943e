package main

import (
	"embed"

	"github.com/condengine/condengine/cmd/cli"
	"github.com/condengine/condengine/conformance"
)

//go:generate go -C ../.. run ./cmd/condengine explain -rules -out docs/rules.md
//go:generate go -C ../.. run ./cmd/condengine vocab -o markdown -out docs/vocabulary

// The demo's worlds are scenario files, so the same data is checked by
// `condengine check` (see the tests) and shown by `condengine demo`.
//
//go:embed demo/*.yaml
var demoFiles embed.FS

// command is condengine: the command of package cli for the seed
// systems, with the seed's demo.
func command() *cli.Command {
	return &cli.Command{
		Name:     "condengine",
		Systems:  conformance.SeedSystems(),
		Generate: "go generate ./cmd/condengine",
		Demo: &cli.Demo{
			Summary: "show the seed's kubectl view and a FinOps family, computed from built-in data",
			Files:   demoFiles,
			Sections: []cli.DemoSection{
				{File: "demo/binding.yaml", Title: "Agent Kourier: the Binding status of the seed's `kubectl get akbinding -A`"},
				{File: "demo/finops.yaml", Title: "FinOps: a PriceBook election, an Offering, and a Subscription family"},
			},
		},
	}
}

func main() { command().Main() }
