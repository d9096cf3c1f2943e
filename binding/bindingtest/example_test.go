package bindingtest_test

import (
	"fmt"
	"time"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
)

// recorder is a minimal TB; a real test passes its *testing.T.
type recorder struct{ problems []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

// Build a small healthy world, evaluate it, and check the invariants the
// way a test would.
func ExampleCheckInvariants() {
	s := bindingtest.Healthy(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC), "team-a", 2)
	r, err := binding.Evaluate(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	t := &recorder{}
	bindingtest.CheckInvariants(t, s, r)
	fmt.Println("problems:", len(t.problems))
	for _, br := range r.Bindings {
		fmt.Println(br.Name, br.Conditions[3].Type, br.Conditions[3].Status)
	}
	// Output:
	// problems: 0
	// chat-0 Ready True
	// chat-1 Ready True
}
