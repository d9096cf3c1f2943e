package scenario

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// bindingFile is a Binding scenario of the given name at the tests' now,
// with rest (the expectations and any other keys) after its head.
func bindingFile(name, rest string) string {
	return "name: " + name + "\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\n" + rest
}

const sample = `
name: the younger Binding loses the channel
system: binding
now: "2026-11-30T10:00:00Z"
broker: {leader: true}
objects:
  - apiVersion: agentkourier.dev/v1alpha1
    kind: Binding
    metadata: {namespace: team-a, name: late}
probes:
  - binding: team-a/first
    generation: 1
    backend: {http: 200, card: {name: echo}}
    channel: {ok: true, isMember: true, isArchived: false}
expect:
  - kind: Binding
    namespace: team-a
    name: late
    write: true
    conditions:
      - type: Accepted
        status: "False"
        reason: ChannelConflict
        observedGeneration: 1
        messageContains: ["C1"]
        messageExcludes: ["team-b"]
        messageMaxBytes: 60
    status: {channel: C1, nested: {a: 1}, gone: null}
`

func TestParse_Sample(t *testing.T) {
	f := parse(t, sample)
	assert.Equal(t, "binding", f.System)
	assert.True(t, f.Now.Time.Equal(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)))
	require.Len(t, f.Objects, 1)
	assert.Contains(t, string(f.Objects[0]), `"namespace":"team-a"`)
	require.Len(t, f.Probes, 1)
	assert.Equal(t, 200, f.Probes[0].Backend.HTTP)
	assert.True(t, *f.Probes[0].Channel.IsMember)
	require.Len(t, f.Expect, 1)
	assert.Len(t, *f.Expect[0].Conditions, 1)
}

func TestParse_Refuses(t *testing.T) {
	cases := map[string]string{
		"unknown key":      "name: x\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nexpcet: []\n",
		"no name":          "system: binding\nnow: \"2026-11-30T10:00:00Z\"\n",
		"two-line name":    "name: \"a\\nb\"\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\n",
		"empty system":     "name: x\nsystem: \" \"\nnow: \"2026-11-30T10:00:00Z\"\n",
		"two-line system":  "name: x\nsystem: \"a\\nb\"\nnow: \"2026-11-30T10:00:00Z\"\n",
		"no now":           "name: x\nsystem: finops\n",
		"bad now":          "name: x\nsystem: finops\nnow: yesterday\n",
		"nameless expect":  "name: x\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nexpect: [{kind: Offering}]\n",
		"not yaml":         "name: [unclosed\n",
		"wrong type":       "name: x\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nprobes: 3\n",
		"misspelt in cond": "name: x\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nexpect: [{kind: A, name: b, conditions: [{type: Ready, stauts: \"True\"}]}]\n",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(text))
			assert.Error(t, err)
		})
	}
	_, err := Parse(make([]byte, MaxFileBytes+1))
	assert.Error(t, err, "oversized")
}

func outcome() Outcome {
	return Outcome{
		Kind: "Binding", Namespace: "team-a", Name: "late", Write: true,
		Conditions: []metav1.Condition{{Type: "Accepted", Status: "False", Reason: "ChannelConflict", ObservedGeneration: 1,
			Message: "spec.chat.channel: channel C1 is already bound by a Binding in another namespace"}},
		Status: json.RawMessage(`{"channel":"C1","nested":{"a":1,"b":2},"extra":true}`),
	}
}

func TestCheck_Passes(t *testing.T) {
	f := parse(t, strings.Replace(sample, "messageMaxBytes: 60", "messageMaxBytes: 100", 1))
	assert.Empty(t, f.Check([]Outcome{outcome()}))
}

func TestCheck_ReportsEachMismatch(t *testing.T) {
	f := parse(t, sample)
	cases := map[string]struct {
		mutate func(*Outcome)
		line   string
	}{
		"message too long":      {func(o *Outcome) {}, `conditions[0].message: want at most 60 bytes, got 80 bytes`},
		"reason":                {func(o *Outcome) { o.Conditions[0].Reason = "InvalidSpec" }, `conditions[0].reason: want "ChannelConflict", got "InvalidSpec"`},
		"generation":            {func(o *Outcome) { o.Conditions[0].ObservedGeneration = 2 }, `conditions[0].observedGeneration: want 1, got 2`},
		"missing text":          {func(o *Outcome) { o.Conditions[0].Message = "C2" }, `conditions[0].message: want a message containing "C1", got "C2"`},
		"excluded text":         {func(o *Outcome) { o.Conditions[0].Message = "C1 team-b" }, `conditions[0].message: want a message without "team-b", got "C1 team-b"`},
		"extra condition":       {func(o *Outcome) { o.Conditions = append(o.Conditions, metav1.Condition{Type: "Ready"}) }, `conditions[1]: want (absent), got {type: "Ready", status: "", reason: ""}`},
		"missing condition":     {func(o *Outcome) { o.Conditions = nil }, `conditions[0]: want {type: "Accepted", status: "False", reason: "ChannelConflict"}, got (absent)`},
		"write":                 {func(o *Outcome) { o.Write = false }, `write: want true, got false`},
		"status scalar":         {func(o *Outcome) { o.Status = json.RawMessage(`{"channel":"C9","nested":{"a":1}}`) }, `status.channel: want "C1", got "C9"`},
		"status nested":         {func(o *Outcome) { o.Status = json.RawMessage(`{"channel":"C1","nested":{"a":2}}`) }, `status.nested.a: want 1, got 2`},
		"status missing":        {func(o *Outcome) { o.Status = json.RawMessage(`{"nested":{"a":1}}`) }, `status.channel: want "C1", got (absent)`},
		"status must be absent": {func(o *Outcome) { o.Status = json.RawMessage(`{"channel":"C1","nested":{"a":1},"gone":"here"}`) }, `status.gone: want (absent), got "here"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := outcome()
			if name != "message too long" {
				o.Conditions[0].Message = o.Conditions[0].Message[:50]
			}
			tc.mutate(&o)
			d := f.Check([]Outcome{o})
			assert.True(t, strings.HasPrefix(d, "Binding team-a/late:\n"), d)
			assert.Contains(t, d, "\n  "+tc.line+"\n")
			assert.Equal(t, 2, strings.Count(d, "\n"), "one mismatch only:\n%s", d)
			assert.NotContains(t, d, "&")
			assert.NotContains(t, d, "scenario.")
		})
	}
	assert.Contains(t, f.Check(nil), "not evaluated")
}

func TestMismatches_NameObjectAndField(t *testing.T) {
	f := parse(t, sample)
	o := outcome()
	o.Conditions[0].Message = "C1"
	o.Write = false
	assert.Equal(t, []Mismatch{{Object: "Binding team-a/late", Field: "write", Want: "true", Got: "false"}}, f.Mismatches([]Outcome{o}))
}

func TestCheck_EmptyConditionsMeansNone(t *testing.T) {
	f := parse(t, "name: x\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nexpect: [{kind: FinOpsProvider, name: default, conditions: []}]\n")
	o := Outcome{Kind: "FinOpsProvider", Name: "default"}
	assert.Empty(t, f.Check([]Outcome{o}))
	o.Conditions = []metav1.Condition{{Type: "Ready"}}
	assert.NotEmpty(t, f.Check([]Outcome{o}))
}

// conditionsInclude finds each condition by its type, wherever it stands,
// and leaves the object's other conditions unchecked.
func TestCheck_ConditionsIncludeFindsEachByType(t *testing.T) {
	f, err := Parse([]byte("name: x\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nexpect: [{kind: Binding, namespace: a, name: b, conditionsInclude: [" +
		"{type: Ready, status: \"False\", reason: \"Accepted:ChannelConflict\"}, {type: Accepted, status: \"False\", reason: ChannelConflict, message: held}]}]\n"))
	require.NoError(t, err)
	o := Outcome{Kind: "Binding", Namespace: "a", Name: "b", Conditions: []metav1.Condition{
		{Type: "Accepted", Status: "False", Reason: "ChannelConflict", Message: "held"},
		{Type: "ChannelJoined", Status: "Unknown", Reason: "Pending"},
		{Type: "Ready", Status: "False", Reason: "Accepted:ChannelConflict", Message: "held"},
	}}
	assert.Empty(t, f.Check([]Outcome{o}))
	o.Conditions[0].Message = "other"
	assert.Equal(t, []Mismatch{{Object: "Binding a/b", Field: "conditionsInclude[1].message", Want: `"held"`, Got: `"other"`}}, f.Mismatches([]Outcome{o}))
	o.Conditions = o.Conditions[1:]
	assert.Equal(t, []Mismatch{{Object: "Binding a/b", Field: "conditionsInclude[1]", Want: `{type: "Accepted", status: "False", reason: "ChannelConflict"}`, Got: absent}},
		f.Mismatches([]Outcome{o}))
	for _, bad := range []string{"[{status: \"True\", reason: OK}]", "[{type: Ready, status: \"True\", reason: OK}, {type: Ready, status: \"True\", reason: OK}]"} {
		_, err := Parse([]byte("name: x\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nexpect: [{kind: Binding, namespace: a, name: b, conditionsInclude: " + bad + "}]\n"))
		assert.ErrorContains(t, err, "expect[0].conditionsInclude[", bad)
	}
}

func TestCheck_WriterVerdict(t *testing.T) {
	f := parse(t, bindingFile("x", "expect: [{kind: Binding, namespace: a, name: b, decision: wait, waitUntil: \"2026-11-30T10:00:10Z\", fight: true}]\n"))
	o := Outcome{Kind: "Binding", Namespace: "a", Name: "b", Decision: "wait", Fight: true,
		WaitUntil: metav1.NewTime(time.Date(2026, 11, 30, 10, 0, 10, 0, time.UTC))}
	assert.Empty(t, f.Check([]Outcome{o}))
	o.WaitUntil = metav1.NewTime(o.WaitUntil.Add(time.Second))
	assert.Contains(t, f.Check([]Outcome{o}), `waitUntil: want "2026-11-30T10:00:10Z", got "2026-11-30T10:00:11Z"`)

	f = parse(t, bindingFile("x", "expect: [{kind: Binding, namespace: a, name: b, fightBegins: true, foreignEdit: true}]\n"))
	o = Outcome{Kind: "Binding", Namespace: "a", Name: "b", FightBegins: true, ForeignEdit: true}
	assert.Empty(t, f.Check([]Outcome{o}))
	o.FightBegins = false
	assert.Contains(t, f.Check([]Outcome{o}), "fightBegins: want true, got false")
	o.FightBegins, o.ForeignEdit = true, false
	assert.Contains(t, f.Check([]Outcome{o}), "foreignEdit: want true, got false")
}

// Decisions §11.14: instants are compared exactly. A wait that ends a
// nanosecond or a few hundred milliseconds off the expected instant
// fails, and so does a lastTransitionTime; the expected instant keeps the
// file's fraction of a second.
func TestCheck_InstantsAreExact(t *testing.T) {
	f := parse(t, bindingFile("x", `expect:
  - kind: Binding
    namespace: a
    name: b
    waitUntil: "2026-11-30T10:00:05.3Z"
    conditions: [{type: Ready, status: "True", reason: OK, lastTransitionTime: "2026-11-30T09:00:00Z"}]
`))
	at := time.Date(2026, 11, 30, 10, 0, 5, 300_000_000, time.UTC)
	ltt := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	o := func(wait, lt time.Time) Outcome {
		return Outcome{Kind: "Binding", Namespace: "a", Name: "b", WaitUntil: metav1.NewTime(wait),
			Conditions: []metav1.Condition{{Type: "Ready", Status: "True", Reason: "OK", LastTransitionTime: metav1.NewTime(lt)}}}
	}
	assert.Empty(t, f.Check([]Outcome{o(at, ltt)}))
	for name, tc := range map[string]struct {
		wait, lt time.Time
		shows    string
	}{
		"WaitWholeSecond":   {at.Truncate(time.Second), ltt, "10:00:05Z"},
		"WaitNanosecondOff": {at.Add(1), ltt, "10:00:05.300000001Z"},
		"TransitionOff":     {at, ltt.Add(500 * time.Millisecond), "09:00:00.5Z"},
	} {
		t.Run(name, func(t *testing.T) {
			d := f.Check([]Outcome{o(tc.wait, tc.lt)})
			assert.Contains(t, d, tc.shows)
		})
	}
}

// The prober's verdict is checked key by key, instants and durations
// exactly; a runner that reports none fails every key given.
func TestCheck_ProberPass(t *testing.T) {
	f := parse(t, bindingFile("x", `expect:
  - kind: Prober
    name: default
    pass: {start: false, at: "2026-11-30T10:00:30.25Z", cause: config, atOnce: 2, probeTimeout: 10s, maxDuration: 20s,
           targets: [{binding: team-a/a, generation: 1}, {binding: team-a/b, generation: 3}]}
`))
	good := func() Outcome {
		return Outcome{Kind: KindProber, Name: "default", Pass: &Pass{At: time.Date(2026, 11, 30, 10, 0, 30, 250_000_000, time.UTC),
			Cause: "config", AtOnce: 2, ProbeTimeout: 10 * time.Second, MaxDuration: 20 * time.Second,
			Targets: []PassTarget{{"team-a/a", 1}, {"team-a/b", 3}}}}
	}
	assert.Empty(t, f.Check([]Outcome{good()}))
	for name, tc := range map[string]struct {
		mutate func(*Pass)
		shows  string
	}{
		"Start":       {func(p *Pass) { p.Start = true }, "pass.start: want false, got true"},
		"AtToSecond":  {func(p *Pass) { p.At = p.At.Truncate(time.Second) }, "10:00:30Z"},
		"Cause":       {func(p *Pass) { p.Cause = "periodic" }, "periodic"},
		"TargetOrder": {func(p *Pass) { p.Targets[0], p.Targets[1] = p.Targets[1], p.Targets[0] }, "team-a/b"},
		"Generation":  {func(p *Pass) { p.Targets[1].Generation = 2 }, `{"binding":"team-a/b","generation":2}`},
		"AtOnce":      {func(p *Pass) { p.AtOnce = 3 }, "pass.atOnce: want 2, got 3"},
		"Timeout":     {func(p *Pass) { p.ProbeTimeout = 7 * time.Second }, "7s"},
		"MaxDuration": {func(p *Pass) { p.MaxDuration = 30 * time.Second }, "30s"},
	} {
		t.Run(name, func(t *testing.T) {
			o := good()
			tc.mutate(o.Pass)
			assert.Contains(t, f.Check([]Outcome{o}), tc.shows)
		})
	}
	assert.Contains(t, f.Check([]Outcome{{Kind: KindProber, Name: "default"}}), "pass.maxDuration: want 20s, got 0s")
}

func TestRunners(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600))
	}
	write("a.yaml", "name: passes\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nexpect: [{kind: K, name: obj, write: false}]\n")
	write("b.yml", "name: fails\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nexpect: [{kind: K, name: obj, write: true}]\n")
	write("c.yaml", "name: broken\n")
	write("d.yaml", "name: no runner\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nexpect: []\n")
	write("notes.txt", "ignored")
	rs := Runners{"finops": func(*File) ([]Outcome, error) { return []Outcome{{Kind: "K", Name: "obj"}}, nil }}
	results, err := rs.RunPaths(dir)
	require.NoError(t, err)
	require.Len(t, results, 4)
	assert.True(t, results[0].Passed())
	assert.False(t, results[1].Passed())
	assert.Error(t, results[2].Err)
	assert.Error(t, results[3].Err)

	rs["finops"] = func(*File) ([]Outcome, error) { return nil, errors.New("bad manifest") }
	results, err = rs.RunPaths(filepath.Join(dir, "a.yaml"))
	require.NoError(t, err)
	assert.EqualError(t, results[0].Err, "bad manifest")

	_, err = rs.RunPaths(filepath.Join(dir, "missing"))
	assert.Error(t, err)
}

// LoadFS reads a file as Load does, so the embedded corpus run by TestFS
// cannot hold a file `condengine check` refuses.
func TestLoadFS_RefusesAsLoad(t *testing.T) {
	t.Chdir(t.TempDir())
	const good = "name: x\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\n"
	cases := map[string]string{
		"broken second document": good + "---\nname: [unclosed\n",
		"second document":        good + "---\nname: y\n",
		"no documents":           "# nothing\n",
		"not yaml":               "name: [unclosed\n",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile("s.yaml", []byte(text), 0o600))
			_, err := Load("s.yaml")
			require.Error(t, err)
			_, errFS := LoadFS(os.DirFS("."), "s.yaml")
			require.Error(t, errFS)
			assert.Equal(t, err.Error(), errFS.Error())
		})
	}
	require.NoError(t, os.WriteFile("s.yaml", []byte(good), 0o600))
	f, err := Load("s.yaml")
	require.NoError(t, err)
	fFS, err := LoadFS(os.DirFS("."), "s.yaml")
	require.NoError(t, err)
	assert.Equal(t, f, fFS)
}

// Paths lists a directory's scenario files as PathsFS lists them, below
// the directory's own path.
func TestPaths_DirectoryAsPathsFS(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o700))
	for _, name := range []string{"b.yml", "sub/a.yaml", "a.yaml", "notes.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o600))
	}
	named := filepath.Join(dir, "notes.txt")
	got, err := Paths(dir, named)
	require.NoError(t, err)
	assert.Equal(t, []string{
		filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yml"), filepath.Join(dir, "sub", "a.yaml"), named,
	}, got)
	rel, err := PathsFS(os.DirFS(dir))
	require.NoError(t, err)
	assert.Equal(t, []string{"a.yaml", "b.yml", "sub/a.yaml"}, rel)
}
