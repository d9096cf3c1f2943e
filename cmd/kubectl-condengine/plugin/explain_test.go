package plugin

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/condengine/condengine/explain"
)

func runExplain(t *testing.T, newReader newReaderFunc, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"explain"}, args...), &out, &errb, newReader, func() time.Time { return auditNow })
	return code, out.String(), errb.String()
}

// explained runs explain and fails t unless it exits 0; it returns
// stdout and stderr.
func explained(t *testing.T, newReader newReaderFunc, args ...string) (string, string) {
	t.Helper()
	code, out, errs := runExplain(t, newReader, args...)
	if code != exitOK {
		t.Fatalf("code %d, stderr %q\n%s", code, errs, out)
	}
	return out, errs
}

// A Binding refused by a channel conflict: the rule, the holder (in
// another namespace) and both creation times; Ready derived from
// Accepted.
func TestExplain_ChannelConflictNamesRuleHolderAndBothCreationTimes(t *testing.T) {
	client, newReader := fakeCluster(objects(t, "conflict-across-namespaces.yaml")...)
	out, errs := explained(t, newReader, "binding", "second", "-n", "team-a")
	want := `Binding team-a/second
  Accepted=False ChannelConflict (observedGeneration 1)
    ← rule binding/accepted/channel-conflict: an older Binding (by creationTimestamp, then namespace, name and UID) holds the same channel on the same ChatConnection
      ← Binding team-a/second (uid u-second, generation 1)
          spec.agent.backendRef: team-a/echo
          spec.chat.connectionRef: team-a/slack
          spec.chat.channel: C7
          metadata.creationTimestamp: 2026-11-30T09:45:00Z
      ← AgentBackend team-a/echo (uid u-echo, generation 1)
      ← Binding team-b/support (uid u-support, generation 1)
          holds: channel C7 on ChatConnection team-a/slack
          metadata.creationTimestamp: 2026-11-30T08:30:00Z
      ← ChatConnection team-a/slack (uid u-slack, generation 1)
  Ready=False Accepted:ChannelConflict (observedGeneration 1)
    ← derived from Accepted
    ← rule binding/ready/from-accepted: Accepted is not True, so Ready carries its status and Accepted:<reason>
      ← Binding team-a/second (uid u-second, generation 1)
          status.conditions[Accepted]: ChannelConflict
`
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	// Nothing is written on the object: explain says the written
	// conditions differ, on stderr, and leaves stdout to the tree.
	if !strings.Contains(errs, "note: Accepted is written (absent), due False/ChannelConflict (gen 1)") {
		t.Errorf("stderr %q", errs)
	}
	assertReadOnly(t, client)
}

// What a cluster cannot show is named as the missing input. A probe
// condition cannot be judged from a cluster: it is shown as written (or
// as absent when nothing is written yet), says which input is missing,
// and names no rule; Accepted, which needs no probe, is explained by its
// rule. A Subscription's CostsResolved is judged as if no collection run
// wrote now: the kept rule, and the run named as the missing input.
func TestExplain_NamesTheMissingInput(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		args       []string
		wants      []string
	}{
		{"probe conditions shown as written", "cluster.yaml", []string{"Binding", "first", "--namespace", "team-a"}, []string{
			"  Accepted=True OK (observedGeneration 1)\n    ← rule binding/accepted/ok: ",
			"  BackendReachable=True OK (observedGeneration 1)\n    ← missing input: the prober's card fetch results, which a cluster does not hold; not judged, shown as written\n",
			"  ChannelJoined=True OK (observedGeneration 1)\n    ← missing input: the prober's channel look results, ",
			"  Ready=True OK (observedGeneration 1)\n    ← missing input: the probe results BackendReachable and ChannelJoined depend on, ",
		}},
		{"unwritten probe conditions listed as absent", "conflict-across-namespaces.yaml", []string{"binding", "support", "-n", "team-b"}, []string{
			"  Accepted=True OK (observedGeneration 1)\n    ← rule binding/accepted/ok: ",
			"  BackendReachable (absent)\n    ← missing input: the prober's card fetch results, ",
			"  ChannelJoined (absent)\n    ← missing input: the prober's channel look results, ",
			"  Ready (absent)\n    ← missing input: the probe results ",
		}},
		{"costs resolved names the collection run", "costs-kept.yaml", []string{"subscription", "acme", "-n", "team-a"}, []string{
			"  CostsResolved=True FromDB (observedGeneration 1)\n" +
				"    ← missing input: the charge collection run, which a cluster does not show; judged as if none ran now, so the collector's last CostsResolved is kept\n" +
				"    ← rule subscription/costs-resolved/kept: ",
			"  Active=True ActivationSucceeded (observedGeneration 1)\n    ← rule subscription/active/",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, newReader := fakeCluster(objects(t, tc.file)...)
			out, _ := explained(t, newReader, tc.args...)
			containsAll(t, out, tc.wants...)
		})
	}
}

// Of a Binding whose probe conditions are written, only Accepted is
// judged: one rule line, nothing said on stderr, and in JSON a rule for
// Accepted and a missing input for each probe condition.
func TestExplain_ProbeConditionSaysItCannotBeJudgedLive(t *testing.T) {
	_, newReader := fakeCluster(objects(t, "cluster.yaml")...)
	out, errs := explained(t, newReader, "Binding", "first", "--namespace", "team-a")
	if n := strings.Count(out, "← rule "); n != 1 {
		t.Errorf("%d rule lines, want Accepted's only:\n%s", n, out)
	}
	if errs != "" {
		t.Errorf("stderr %q: the judged conditions are as due", errs)
	}

	out, _ = explained(t, newReader, "bindings/first", "-n", "team-a", "-o", "json")
	var got []explain.Object
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Conditions) != 4 {
		t.Fatalf("%s", out)
	}
	for _, c := range got[0].Conditions {
		probe := c.Type != "Accepted"
		if probe != (c.Rule == "") || probe != (c.Missing != "") {
			t.Errorf("%s: rule %q, missing %q", c.Type, c.Rule, c.Missing)
		}
	}
}

func TestExplain_Errors_Exit2(t *testing.T) {
	_, newReader := fakeCluster(objects(t, "cluster.yaml")...)
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"bad output":   {[]string{"binding", "late", "-n", "team-a", "-o", "yaml"}, `--output "yaml" is not tree or json`},
		"unknown kind": {[]string{"pod", "late", "-n", "team-a"}, `unknown kind "pod"; kinds with conditions: Binding, PriceBook, Offering, Subscription`},
		"no name":      {[]string{"binding"}, `name the object as KIND NAME or KIND/NAME, not "binding"`},
		"empty name":   {[]string{"binding/", "-n", "team-a"}, "KIND/NAME"},
		"extra slash":  {[]string{"binding/a/b", "-n", "team-a"}, "KIND/NAME"},
		"three args":   {[]string{"binding", "late", "x"}, "accepts between 1 and 2 arg(s)"},
		"not found":    {[]string{"binding", "late", "-n", "team-b"}, "no Binding team-b/late in the cluster"},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, errs := runExplain(t, newReader, tc.args...)
			if code != exitError || !strings.HasPrefix(errs, "error: ") || !strings.Contains(errs, tc.want) || out != "" {
				t.Errorf("code %d, stdout %q, stderr %q; want %q", code, out, errs, tc.want)
			}
		})
	}
}

// Each drift row of audit's table is followed by the decision behind the
// due condition; the JSON and YAML carry it as why.
func TestAudit_DriftCarriesTheDueDecision(t *testing.T) {
	_, newReader := fakeCluster(objects(t, "cluster.yaml")...)
	code, out, _ := runAudit(t, newReader, "-A")
	if code != exitDrift {
		t.Fatalf("code %d\n%s", code, out)
	}
	lines := strings.Split(out, "\n")
	row := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "Binding ") && strings.Contains(l, " Accepted ") {
			row = i
		}
	}
	if row < 0 || row+10 >= len(lines) {
		t.Fatalf("no Accepted drift row:\n%s", out)
	}
	under := strings.Join(lines[row+1:row+12], "\n")
	containsAll(t, under,
		"\n      ← Binding team-a/first (uid u-first, generation 1)\n          holds: channel C1 on ChatConnection team-a/slack\n          metadata.creationTimestamp: 2026-11-30T09:00:00Z",
		"          metadata.creationTimestamp: 2026-11-30T09:59:00Z",
	)
	if !strings.HasPrefix(lines[row+1], "    ← rule binding/accepted/channel-conflict: ") {
		t.Errorf("line under the row: %q", lines[row+1])
	}
	if !strings.Contains(out, "\n    ← derived from Accepted\n    ← rule binding/ready/from-accepted: ") {
		t.Errorf("Ready's drift is not explained:\n%s", out)
	}

	for _, format := range []string{"json", "yaml"} {
		_, out, _ := runAudit(t, newReader, "-A", "-o", format)
		var r Report
		if err := yamlOrJSON(format, out, &r); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, o := range r.Objects {
			for _, d := range o.Drift {
				if d.Why == nil || d.Why.Rule == "" || len(d.Why.Evidence) == 0 {
					t.Errorf("%s: %s %s drift without a decision: %+v", format, o.Name, d.Type, d.Why)
					continue
				}
				if d.Type == "Accepted" {
					found = d.Why.Rule == "binding/accepted/channel-conflict" && d.Why.Evidence[2].Object.Name == "first"
				}
			}
		}
		if !found {
			t.Errorf("%s: Accepted's decision does not name the rule and the holder:\n%s", format, out)
		}
	}
}

func yamlOrJSON(format, out string, v any) error {
	if format == "json" {
		return json.Unmarshal([]byte(out), v)
	}
	return yaml.UnmarshalStrict([]byte(out), v)
}

// containsAll fails t once for each of wants that out lacks.
func containsAll(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
