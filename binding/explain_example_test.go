package binding_test

import (
	"fmt"
	"os"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/scenario"
)

// Explain says which rule refused team-a/late in the demo world and on
// what evidence: the Binding holding the channel and both creation times.
func ExampleExplain() {
	data, err := os.ReadFile("../cmd/condengine/demo/binding.yaml")
	if err != nil {
		panic(err)
	}
	f, err := scenario.Parse(data)
	if err != nil {
		panic(err)
	}
	s, err := bindingtest.Snapshot(f)
	if err != nil {
		panic(err)
	}
	res, err := binding.Explain(s)
	if err != nil {
		panic(err)
	}
	for _, r := range res.Bindings {
		if r.Name != "late" {
			continue
		}
		p := r.Provenance[0]
		fmt.Println(p.Type, "decided by", p.Rule)
		for _, ev := range p.Evidence {
			for _, fact := range ev.Facts {
				if fact.Field == "metadata.creationTimestamp" {
					fmt.Println(" ", ev.Object, "created", fact.Value)
				}
			}
		}
	}
	// Output:
	// Accepted decided by binding/accepted/channel-conflict
	//   Binding team-a/late created 2026-11-30T09:59:00Z
	//   Binding team-b/support created 2026-11-30T09:00:00Z
}
