package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"
	"sigs.k8s.io/yaml"

	"github.com/condengine/condengine/conformance"
)

// seedPlugin is the plugin the tests run: kubectl condengine, for the
// seed systems.
var seedPlugin = &Plugin{Name: "condengine", Systems: conformance.SeedSystems()}

// run runs seedPlugin on a cluster newReader reads, at the instant now
// gives.
func run(args []string, stdout, stderr io.Writer, newReader newReaderFunc, now func() time.Time) int {
	return seedPlugin.run(args, stdout, stderr, newReader, now)
}

var auditNow = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// world reads the named files of testdata (each a YAML stream) as one
// stream.
func world(t *testing.T, files ...string) string {
	t.Helper()
	docs := make([]string, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, strings.TrimSpace(string(b)))
	}
	return strings.Join(docs, "\n---\n")
}

// objects are the objects of the named testdata files.
func objects(t *testing.T, files ...string) []runtime.Object {
	t.Helper()
	var out []runtime.Object
	for _, doc := range strings.Split(world(t, files...), "\n---\n") {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, &unstructured.Unstructured{Object: m})
	}
	return out
}

// fakeCluster is a reader over a fake dynamic client holding objs.
func fakeCluster(objs ...runtime.Object) (*dynamicfake.FakeDynamicClient, newReaderFunc) {
	lists := map[schema.GroupVersionResource]string{}
	for _, s := range seedPlugin.Systems {
		for _, k := range s.Kinds {
			lists[schema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Plural}] = k.Kind + "List"
		}
	}
	lists[schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}] = "ConfigMapList"
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), lists, objs...)
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, meta.RESTScopeNamespace)
	return client, func(*genericclioptions.ConfigFlags) (*reader, error) {
		return &reader{client: client, mapper: mapper}, nil
	}
}

func runAudit(t *testing.T, newReader newReaderFunc, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"audit"}, args...), &out, &errb, newReader, func() time.Time { return auditNow })
	return code, out.String(), errb.String()
}

func TestAudit_WrongReasonIsDrift_Exit1(t *testing.T) {
	client, newReader := fakeCluster(objects(t, "cluster.yaml")...)
	code, out, errs := runAudit(t, newReader, "-A")
	if code != exitDrift {
		t.Fatalf("code %d, stderr %q\n%s", code, errs, out)
	}
	rows := tableRows(out)
	if !strings.HasPrefix(rows[0], "KIND ") || !strings.Contains(rows[0], "CONDITION") {
		t.Fatalf("header %q", rows[0])
	}
	want := []string{"Binding", "team-a", "late", "Accepted", "status,reason", "True/ChannelFree", "(gen", "False/ChannelConflict"}
	if !hasAll(rows[1], want) {
		t.Errorf("row %q lacks %q", rows[1], want)
	}
	if !hasAll(rows[2], []string{"late", "Ready", " message ", "False/Accepted:ChannelConflict"}) {
		t.Errorf("row %q does not say the message differs", rows[2])
	}
	if !strings.Contains(out, "  Binding team-a/first: BackendReachable, ChannelJoined, Ready\n") {
		t.Errorf("the probe-dependent conditions of the accepted Binding are not listed as not judged:\n%s", out)
	}
	if strings.Contains(out, "Binding team-a/late: ") {
		t.Errorf("a refused Binding is judged whole:\n%s", out)
	}
	if !strings.HasSuffix(out, "2 objects audited, 1 drifted\n") {
		t.Errorf("summary:\n%s", out)
	}
	assertReadOnly(t, client)
}

// Writing what audit says is due ends the drift.
func TestAudit_AfterTheDueStatusIsWritten_Exit0(t *testing.T) {
	_, newReader := fakeCluster(objects(t, "cluster.yaml")...)
	code, out, _ := runAudit(t, newReader, "-A", "-o", "json")
	if code != exitDrift {
		t.Fatalf("code %d\n%s", code, out)
	}
	var r Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	objs := objects(t, "cluster.yaml")
	late := objs[3].(*unstructured.Unstructured)
	var conds []any
	for _, o := range r.Objects {
		if o.Name != "late" {
			continue
		}
		if len(o.Drift) != 2 {
			t.Fatalf("drift %+v", o.Drift)
		}
		for _, d := range o.Drift {
			conds = append(conds, map[string]any{"type": d.Type, "status": d.Due.Status, "reason": d.Due.Reason,
				"message": d.Due.Message, "observedGeneration": d.Due.ObservedGeneration, "lastTransitionTime": "2026-11-30T10:00:00Z"})
		}
	}
	if err := unstructured.SetNestedSlice(late.Object, conds, "status", "conditions"); err != nil {
		t.Fatal(err)
	}
	_, newReader = fakeCluster(objs...)
	code, out, errs := runAudit(t, newReader, "--all-namespaces")
	if code != exitOK || !strings.HasSuffix(out, "2 objects audited, 0 drifted\n") || strings.Contains(out, "KIND") {
		t.Fatalf("code %d, stderr %q\n%s", code, errs, out)
	}
}

func TestAudit_Namespace(t *testing.T) {
	_, newReader := fakeCluster(objects(t, "cluster.yaml")...)
	code, out, _ := runAudit(t, newReader, "-n", "team-b")
	if code != exitOK || out != "0 objects audited, 0 drifted\n" {
		t.Fatalf("code %d\n%s", code, out)
	}
	code, _, _ = runAudit(t, newReader, "--namespace", "team-a")
	if code != exitDrift {
		t.Fatalf("code %d", code)
	}
}

func TestAudit_FinOpsDrift_YAML(t *testing.T) {
	_, newReader := fakeCluster(objects(t, "pricebook.yaml")...)
	code, out, errs := runAudit(t, newReader, "-A", "-o", "yaml")
	if code != exitDrift {
		t.Fatalf("code %d, stderr %q\n%s", code, errs, out)
	}
	var r Report
	if err := yaml.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Drifted != 1 || len(r.Objects) != 1 || r.Objects[0].Kind != "PriceBook" || len(r.Objects[0].Drift) == 0 ||
		r.Objects[0].Drift[0].Written != nil || r.Objects[0].NotJudged != nil {
		t.Fatalf("%+v", r)
	}
}

func TestAudit_UsageErrors_Exit2(t *testing.T) {
	_, newReader := fakeCluster()
	for name, args := range map[string][]string{
		"bad output":   {"-A", "-o", "xml"},
		"argument":     {"-A", "extra"},
		"unknown flag": {"--bogus"},
	} {
		t.Run(name, func(t *testing.T) {
			if code, _, errs := runAudit(t, newReader, args...); code != exitError || !strings.HasPrefix(errs, "error: ") {
				t.Errorf("code %d, stderr %q", code, errs)
			}
		})
	}
}

func assertReadOnly(t *testing.T, client *dynamicfake.FakeDynamicClient) {
	t.Helper()
	if len(client.Actions()) == 0 {
		t.Fatal("no requests recorded")
	}
	for _, a := range client.Actions() {
		if v := a.GetVerb(); v != "list" && v != "get" {
			t.Errorf("audit made a %s request", v)
		}
	}
}

// tableRows are the lines of audit's table output without the indented
// decisions printed under each drift row.
func tableRows(out string) []string {
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "    ") {
			rows = append(rows, l)
		}
	}
	return rows
}

func hasAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// With -n the other namespaces are still read: a Binding naming another
// namespace's objects is judged as the broker judges it.
func TestAudit_NamespaceStillResolvesOtherNamespaces(t *testing.T) {
	_, newReader := fakeCluster(objects(t, "cluster.yaml", "remote-binding.yaml")...)
	code, outAll, _ := runAudit(t, newReader, "-A", "-o", "json")
	if code != exitDrift {
		t.Fatalf("code %d", code)
	}
	code, outB, _ := runAudit(t, newReader, "-n", "team-b", "-o", "json")
	var all, b Report
	if err := json.Unmarshal([]byte(outAll), &all); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(outB), &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Objects) != 1 || b.Objects[0].Name != "remote" {
		t.Fatalf("team-b report %+v", b)
	}
	for _, o := range all.Objects {
		if o.Name == "remote" {
			a, _ := json.Marshal(o)
			g, _ := json.Marshal(b.Objects[0])
			if string(a) != string(g) {
				t.Errorf("judged differently with -n:\n%s\n%s", g, a)
			}
		}
	}
	if wantCode := map[bool]int{true: exitDrift, false: exitOK}[b.Drifted > 0]; code != wantCode {
		t.Errorf("code %d with %d drifted", code, b.Drifted)
	}
}

// forbidOutside makes the fake API server refuse lists across
// namespaces and gets outside namespace ns, as RBAC bound to one
// namespace does.
func forbidOutside(client *dynamicfake.FakeDynamicClient, ns string) {
	client.PrependReactor("list", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetNamespace() != ns {
			return true, nil, apierrors.NewForbidden(a.GetResource().GroupResource(), "", errors.New("cluster-wide list"))
		}
		return false, nil, nil
	})
	client.PrependReactor("get", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetNamespace() != ns {
			return true, nil, apierrors.NewForbidden(a.GetResource().GroupResource(), a.(k8stesting.GetAction).GetName(), errors.New("outside the namespace"))
		}
		return false, nil, nil
	})
}

// With only one namespace's rights, a target elsewhere that may not be
// read reads as missing, as the note says, instead of failing the run.
func TestAudit_NamespaceOnly_ForbiddenTargetReadsAsMissing(t *testing.T) {
	client, newReader := fakeCluster(objects(t, "target-elsewhere.yaml", "target-configmap.yaml")...)
	forbidOutside(client, "team-a")
	code, out, errs := runAudit(t, newReader, "-n", "team-a", "-o", "json")
	if code == exitError {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	if !strings.Contains(errs, "note: cannot list across namespaces; references to other namespaces read as missing\n") {
		t.Errorf("stderr %q", errs)
	}
	forbiddenGet := false
	for _, a := range client.Actions() {
		if a.GetVerb() == "get" && a.GetNamespace() == "team-b" {
			forbiddenGet = true
		}
	}
	if !forbiddenGet {
		t.Fatal("the target was never asked for")
	}

	// The same cluster without the ConfigMap, read with every right.
	_, newReader = fakeCluster(objects(t, "target-elsewhere.yaml")...)
	wantCode, want, _ := runAudit(t, newReader, "-n", "team-a", "-o", "json")
	if code != wantCode || out != want {
		t.Errorf("code %d, want %d (the target missing); report:\n%s\nwant:\n%s", code, wantCode, out, want)
	}
	// And with it: the target's existence shows in the report, so the
	// comparison above tells missing from present.
	_, newReader = fakeCluster(objects(t, "target-elsewhere.yaml", "target-configmap.yaml")...)
	if _, present, _ := runAudit(t, newReader, "-n", "team-a", "-o", "json"); present == want {
		t.Errorf("the report is the same whether the target exists or not:\n%s", present)
	}
}

// Reading every namespace, a target the user may not get is an error:
// audit cannot tell whether it exists.
func TestAudit_AllNamespaces_ForbiddenTargetIsAnError(t *testing.T) {
	client, newReader := fakeCluster(objects(t, "target-elsewhere.yaml", "target-configmap.yaml")...)
	client.PrependReactor("get", "configmaps", func(a k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(a.GetResource().GroupResource(), "cfg", errors.New("no"))
	})
	code, _, errs := runAudit(t, newReader, "-A")
	if code != exitError || !strings.Contains(errs, "cannot tell whether ConfigMap team-b/cfg exists") {
		t.Errorf("code %d, stderr %q", code, errs)
	}
}

// A resource not served is noted once, though the read is retried in
// the namespace after a list across namespaces was forbidden.
func TestAudit_RetriedReadNotesOnce(t *testing.T) {
	client, newReader := fakeCluster(objects(t, "cluster.yaml")...)
	client.PrependReactor("list", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		switch r := a.GetResource(); {
		case r.Resource == "agentbackends":
			return true, nil, apierrors.NewNotFound(r.GroupResource(), "")
		case r.Group == "finops.stakater.com" && a.GetNamespace() == "":
			return true, nil, apierrors.NewForbidden(r.GroupResource(), "", errors.New("cluster-wide list"))
		}
		return false, nil, nil
	})
	code, _, errs := runAudit(t, newReader, "-n", "team-a")
	if code == exitError {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	want := "note: agentbackends.agentkourier.dev is not served by this cluster; skipped\n" +
		"note: cannot list across namespaces; references to other namespaces read as missing\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
}

// An empty report has the same JSON shape with -A as with -n: an empty
// list of objects, not null.
func TestAudit_EmptyClusterListsNoObjects(t *testing.T) {
	_, newReader := fakeCluster()
	for _, scope := range [][]string{{"-A"}, {"-n", "team-a"}} {
		code, out, errs := runAudit(t, newReader, append(scope, "-o", "json")...)
		if code != exitOK {
			t.Fatalf("%v: code %d, stderr %q", scope, code, errs)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if objs, ok := got["objects"].([]any); !ok || len(objs) != 0 || got["drifted"] != 0.0 {
			t.Errorf("%v: %s", scope, out)
		}
	}
}

// A Binding on another broker's ChatConnection is judged as that broker
// answers; one whose connection is missing, as the default broker does
// (every broker answers for it); two Bindings sharing a UID, which no
// broker answers for, are left out.
func TestAudit_EachBindingAsItsBrokerAnswers(t *testing.T) {
	_, newReader := fakeCluster(objects(t, "cluster.yaml", "other-brokers.yaml")...)
	code, out, errs := runAudit(t, newReader, "-A", "-o", "json")
	if code != exitDrift {
		t.Fatalf("code %d, stderr %q\n%s", code, errs, out)
	}
	var r Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	var names []string
	accepted := map[string]string{}
	for _, o := range r.Objects {
		names = append(names, o.Name)
		for _, d := range o.Drift {
			if d.Type == "Accepted" {
				accepted[o.Name] = d.Due.String()
			}
		}
	}
	if got := strings.Join(names, " "); got != "first late orphan viaother" || r.Drifted != 3 {
		t.Fatalf("objects %q, %d drifted\n%s", got, r.Drifted, out)
	}
	if accepted["viaother"] != "True/OK (gen 1)" || accepted["orphan"] != "False/ConnectionNotFound (gen 1)" {
		t.Errorf("due Accepted %v", accepted)
	}
	// The twins are not audited, but not lost: each is named, with why,
	// in the report and on stderr.
	if len(r.LeftOut) != 2 || !strings.Contains(r.LeftOut[0], "Binding team-a/twin-1 left out: ") ||
		!strings.Contains(r.LeftOut[1], "Binding team-a/twin-2 left out: ") {
		t.Errorf("leftOut %q", r.LeftOut)
	}
	for _, l := range r.LeftOut {
		if !strings.Contains(errs, "note: "+l+"\n") {
			t.Errorf("stderr lacks %q:\n%s", l, errs)
		}
	}
}
