package binding_test

import (
	"fmt"
	"time"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
)

// A host builds the evaluator once from its informers' snapshot, then
// tells it of each event: here a Binding moves to a channel another one
// holds, and only those two are re-evaluated.
func ExampleIncremental() {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	s := bindingtest.Healthy(now, "team-a", 3) // chat-0..chat-2 on C0..C2
	e, full, err := binding.NewIncremental(s)
	if err != nil {
		panic(err)
	}
	fmt.Println("first pass:", len(full.Bindings), "Bindings")

	moved := s.Bindings[2]
	moved.Generation++
	moved.CreationTimestamp.Time = moved.CreationTimestamp.Add(time.Hour) // the younger of the two
	moved.Spec.Chat.Channel = "C0"
	step := e.SetBinding(moved)
	for _, br := range step.Bindings {
		fmt.Printf("%s: %s\n", br.Name, br.Conditions[0].Reason)
	}
	// Output:
	// first pass: 3 Bindings
	// chat-0: OK
	// chat-2: ChannelConflict
}
