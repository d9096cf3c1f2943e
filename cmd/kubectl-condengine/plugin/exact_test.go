package plugin

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/condengine/condengine/internal/exacttest"
)

// bigCluster is the audit tests' cluster with the ChatConnection at
// generation 2^53+1 and the Binding first at 2^63-1, and an Offering and
// a Subscription at those values.
func bigCluster(t *testing.T) string {
	return strings.NewReplacer(
		"name: slack, uid: u-slack, generation: 1", "name: slack, uid: u-slack, generation: "+exacttest.Above53,
		"name: first, uid: u-first, generation: 1", "name: first, uid: u-first, generation: "+exacttest.Int64Max,
	).Replace(world(t, "cluster.yaml", "exact-finops.yaml"))
}

// exactObjects reads docs as the API server's JSON does reach a dynamic
// client: integers as int64, never through a float64.
func exactObjects(t *testing.T, docs string) []runtime.Object {
	t.Helper()
	var out []runtime.Object
	for _, doc := range strings.Split(docs, "\n---\n") {
		js, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(js); err != nil {
			t.Fatal(err)
		}
		out = append(out, u)
	}
	return out
}

func TestExplain_PrintsExactIntegers(t *testing.T) {
	for name, tc := range map[string]struct {
		args  []string
		wants []string
	}{
		"BindingTree":      {[]string{"binding", "first", "-n", "team-a"}, []string{"generation " + exacttest.Int64Max, "generation " + exacttest.Above53}},
		"BindingJSON":      {[]string{"binding", "first", "-n", "team-a", "-o", "json"}, []string{exacttest.Int64Max, exacttest.Above53}},
		"SubscriptionTree": {[]string{"subscription", "max", "-n", "team-a"}, []string{"generation " + exacttest.Int64Max, "generation " + exacttest.Above53}},
		"SubscriptionJSON": {[]string{"subscription", "max", "-n", "team-a", "-o", "json"}, []string{exacttest.Int64Max, exacttest.Above53}},
	} {
		t.Run(name, func(t *testing.T) {
			_, newReader := fakeCluster(exactObjects(t, bigCluster(t))...)
			out, _ := explained(t, newReader, tc.args...)
			exacttest.NotRounded(t, out)
			for _, w := range tc.wants {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestAudit_PrintsExactIntegers(t *testing.T) {
	for _, format := range []string{"table", "yaml", "json"} {
		t.Run(format, func(t *testing.T) {
			_, newReader := fakeCluster(exactObjects(t, bigCluster(t))...)
			_, out, errs := runAudit(t, newReader, "-A", "-o", format)
			exacttest.NotRounded(t, out+errs)
			if !strings.Contains(out, exacttest.Above53) && !strings.Contains(out, exacttest.Int64Max) {
				t.Errorf("no generation printed exactly:\n%s", out)
			}
		})
	}
}
