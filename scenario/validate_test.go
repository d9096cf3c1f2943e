package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/conditions"
)

// Each block of the format is checked where the file is read, and the
// error names the key by its path in the file.
func TestParse_RefusesWhatTheFormatDoesNotAllow(t *testing.T) {
	const head = "name: a test\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nexpect: []\n"
	for name, tc := range map[string]struct{ block, want string }{
		"WriterUnknownKey":        {`writer: {bindingz: []}`, `line 5: writer.bindingz: unknown field`},
		"WriterNotNamespaceName":  {`writer: {bindings: [{binding: chat}]}`, `writer.bindings[0].binding: "chat" is not namespace/name`},
		"WriterTooManySlashes":    {`writer: {bindings: [{binding: a/b/c}]}`, "writer.bindings[0].binding: \"a/b/c\" is not namespace/name"},
		"WriterNegativeFailures":  {`writer: {bindings: [{binding: a/b, failures: -1}]}`, "writer.bindings[0]: failures and fightEdits must not be negative"},
		"WriterListedTwice":       {`writer: {bindings: [{binding: a/b}, {binding: a/b}]}`, "writer.bindings[1].binding: a/b is listed twice"},
		"WriterBadDuration":       {`writer: {limits: {quiet: soon}}`, `line 5: writer.limits.quiet: must be a duration such as 90s, 5m or 1h30m, not "soon"`},
		"ProberUnknownKey":        {`prober: {lastPass: "2026-11-30T10:00:00Z"}`, `line 5: prober.lastPass: unknown field`},
		"ProberUnknownTrigger":    {`prober: {triggers: [{kind: configmap, at: "2026-11-30T10:00:00Z"}]}`, `prober.triggers[0].kind: "configmap" is not leaderStart, config or secret`},
		"ProberTriggerNoTime":     {`prober: {triggers: [{kind: config}]}`, "prober.triggers[0].at is required"},
		"ProberUnknownCovered":    {`prober: {lastCovered: {period: "2026-11-30T10:00:00Z"}}`, `prober.lastCovered: "period" is not leaderStart, config or secret`},
		"BrokerConfigSource":      {`broker: {configSource: etcd}`, `broker.configSource: "etcd" is not crds or configmap`},
		"ServedKind":              {`served: [{kind: Secret, namespace: a, name: b, uid: u, generation: 1}]`, `served[0]: kind: "Secret" is not Binding, AgentBackend or ChatConnection`},
		"ProbeNotNamespaceName":   {`probes: [{binding: chat, generation: 1}]`, `probes[0]: binding: "chat" is not namespace/name`},
		"CollectionSubscription":  {`collection: {scheduledHour: "2026-11-30T09:00:00Z", results: [{subscription: web, buckets: 1, source: db}]}`, `collection.results[0].subscription: "web" is not namespace/name`},
		"ProbeNegativeGeneration": {`probes: [{binding: a/b, generation: -1}]`, "probes[0].generation: -1 must not be negative"},
		"ProbeNegativeHTTP":       {`probes: [{binding: a/b, generation: 1, backend: {http: -200}}]`, "probes[0].backend.http: -200 is not an HTTP status"},
		"ProbeNegativeCardBytes":  {`probes: [{binding: a/b, generation: 1, backend: {http: 200, cardBytes: -5}}]`, "probes[0].backend.cardBytes: -5 must not be negative"},
		"ProbeNegativeRetryAfter": {`probes: [{binding: a/b, generation: 1, channel: {http: 429, retryAfter: -1}}]`, "probes[0].channel.retryAfter: -1 must not be negative"},
		"WriterZeroGap":           {`writer: {limits: {writeGap: 0s}}`, "writer.limits.writeGap: 0s must be positive"},
		"WriterNegativeQuiet":     {`writer: {limits: {quiet: -5s}}`, "writer.limits.quiet: -5s must be positive"},
		"WriterNoFightEdits":      {`writer: {limits: {fightEdits: 0}}`, "writer.limits.fightEdits: 0 must be at least 1"},
		"ProberZeroConcurrency":   {`prober: {limits: {concurrency: 0}}`, "prober.limits.concurrency: 0 must be at least 1"},
		"ProberNegativePeriod":    {`prober: {limits: {period: -1m}}`, "prober.limits.period: -1m0s must be positive"},
		"WriterLookedAtNoTime":    {`writer: {bindings: [{binding: a/b, lookedAt: [null]}]}`, "writer.bindings[0].lookedAt[0] is required"},
		"ProberLookedAtNoTime":    {`prober: {lookedAt: ["2026-11-30T09:59:00Z", null]}`, "prober.lookedAt[1] is required"},
		"CollectionSource":        {`collection: {scheduledHour: "2026-11-30T09:00:00Z", results: [{subscription: a/web, buckets: 1, source: guess}]}`, `collection.results[0].source: "guess" is not db, calculator or error`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(head + tc.block + "\n"))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	f, err := Parse([]byte(head + "probes: [{binding: a/b, generation: 0, backend: {http: 0, cardBytes: 0}}]\n" +
		"writer: {limits: {writeGap: 1s, fightEdits: 1}, bindings: [{binding: a/b, failures: 2}]}\nprober: {triggers: [{kind: config, at: \"2026-11-30T09:59:00Z\"}], lastCovered: {secret: \"2026-11-30T09:00:00Z\"}}\n"))
	require.NoError(t, err, "well-formed blocks are read, zeros where zero is a value")
	assert.Equal(t, 2, f.Writer.Bindings[0].Failures)
	assert.Equal(t, TriggerConfig, f.Prober.Triggers[0].Kind)
}

func TestSplitName(t *testing.T) {
	for in, want := range map[string][3]any{
		"a/b": {"a", "b", true}, "a": {"", "", false}, "/b": {"", "", false}, "a/": {"", "", false}, "a/b/c": {"", "", false},
	} {
		ns, name, ok := SplitName(in)
		assert.Equal(t, want, [3]any{ns, name, ok}, in)
	}
}

// An outcome says what it does with the finalizer as the engine's
// outcomes do; finalizerRemoved holds for FinalizerRemove alone.
func TestCheck_FinalizerRemovedReadsTheFinalizerAction(t *testing.T) {
	yes, no := true, false
	f := &File{Expect: []Expectation{{Kind: "Offering", Namespace: "a", Name: "gone", FinalizerRemoved: &yes},
		{Kind: "Offering", Namespace: "a", Name: "kept", FinalizerRemoved: &no}}}
	for action, want := range map[conditions.FinalizerAction]int{
		conditions.FinalizerRemove: 0, conditions.FinalizerAdd: 1, conditions.FinalizerKeep: 1,
	} {
		got := []Outcome{{Kind: "Offering", Namespace: "a", Name: "gone", Finalizer: action},
			{Kind: "Offering", Namespace: "a", Name: "kept", Finalizer: conditions.FinalizerAdd}}
		assert.Len(t, f.Mismatches(got), want, "finalizer %q", action)
	}
}

// A file that is one line of text, a list or a number is said to be so,
// not in the decoder's Go terms.
func TestParse_NotAMappingSaysWhatItIs(t *testing.T) {
	for in, want := range map[string]string{
		"just some garbage text": "holds a single string, not a mapping of keys",
		"[1, 2]":                 "holds a list, not a mapping of keys",
		"42":                     "holds a single number, not a mapping of keys",
	} {
		_, err := Parse([]byte(in))
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
		assert.NotContains(t, err.Error(), "Go value", in)
	}
}

// A key given twice is refused, naming both lines: a second system: key
// would otherwise run the scenario as the other system.
func TestParse_KeyGivenTwiceNamesBothLines(t *testing.T) {
	for in, want := range map[string]string{
		"name: a\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nsystem: finops\nexpect: []\n":                                                           "line 4: system: given on line 2 and again on line 4",
		"name: a\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nexpect:\n- kind: Binding\n  namespace: a\n  name: b\n  name: c\n":                       "line 8: expect[0].name: given on line 7 and again on line 8",
		"{\"name\": \"a\", \"system\": \"binding\",\n \"now\": \"2026-11-30T10:00:00Z\",\n \"system\": \"finops\", \"expect\": []}":                       "line 3: system: given on line 1 and again on line 3",
		"name: a\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nobjects:\n- {apiVersion: v1, kind: Secret, metadata: {name: s, name: t}}\nexpect: []\n": "line 5: objects[0].metadata.name: given twice on line 5",
		"name: a\nSystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nsystem: binding\nexpect: []\n":                                                           `line 4: system: given on line 2 as "System" and again on line 4 as "system"`,
		"name: a\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nexpect:\n- kind: Binding\n  namespace: a\n  Namespace: b\n  name: c\n":                  `line 7: expect[0].namespace: given on line 6 as "namespace" and again on line 7 as "Namespace"`,
	} {
		_, err := Parse([]byte(in))
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want)
	}
}

// A time or a duration that cannot be read is named by its field and
// line, with what was wanted, not in the decoder's words.
func TestParse_UnreadableTimeNamesTheField(t *testing.T) {
	_, err := Parse([]byte("name: a\nsystem: binding\nnow: yesterday\nexpect: []\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `line 3: now: must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not "yesterday"`)
	assert.NotContains(t, err.Error(), "2006")
}

// A now that is there but reads as no instant is named for what it is,
// at its line; only a now left out is "required".
func TestParse_NowGivenAsNoInstant(t *testing.T) {
	for now, want := range map[string]string{
		"now: \"0001-01-01T00:00:00Z\"\n":  `line 2: scenario: now: "0001-01-01T00:00:00Z" is the zero time, which stands for no instant; give the instant of the evaluation, such as 2026-11-30T10:00:00Z`,
		"now: 0001-01-01T00:00:00+00:00\n": `line 2: scenario: now: "0001-01-01T00:00:00+00:00" is the zero time`,
		"now: null\n":                      `line 2: scenario: now: null is not an instant; give the instant of the evaluation in RFC 3339, such as 2026-11-30T10:00:00Z`,
		"now:\n":                           `line 2: scenario: now: null is not an instant`,
		"expect: []\n":                     `scenario: now is required`,
	} {
		_, err := Parse([]byte("name: a\n" + now + "system: binding\n"))
		require.Error(t, err, now)
		assert.Contains(t, err.Error(), want, now)
	}
}
