package libhost_test

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/fake"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/e2e/internal/kube"
	"github.com/condengine/condengine/e2e/internal/libhost"
)

// One Step lists the three kinds, evaluates them and writes what the engine
// marks. Here the API server is client-go's fake, holding one Binding whose
// AgentBackend and ChatConnection do not exist, and the host is a standby: it computes the
// status and writes nothing. (The e2e tests run it as the leader against a
// real API server.)
func ExampleHost_Step() {
	b := kube.Binding("team-a", "lonely", "echo", "slack", "C1")
	b.SetUID("u-lonely")
	b.SetGeneration(1)
	dyn := fake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		kube.Bindings:        "BindingList",
		kube.AgentBackends:   "AgentBackendList",
		kube.ChatConnections: "ChatConnectionList",
	}, b)
	h := &libhost.Host{Dyn: dyn, Broker: binding.Broker{Leader: false, ProberListed: true}}
	wrote, res, err := h.Step(context.Background(), time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("writes:", wrote, "marked for writing:", res.Bindings[0].Write)
	for _, c := range res.Bindings[0].Conditions {
		fmt.Println(c.Type, c.Status, c.Reason)
	}
	// Output:
	// writes: 0 marked for writing: false
	// Accepted False BackendNotFound
	// Ready False Accepted:BackendNotFound
}
