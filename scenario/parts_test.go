package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Four Binding scenarios, each needing other parts of a host.
var (
	engineFile      = bindingFile("conditions only", "expect: [{kind: Binding, namespace: team-a, name: chat, conditions: []}]\n")
	writerFile      = bindingFile("a writer verdict", "expect: [{kind: Binding, namespace: team-a, name: chat, decision: wait}]\n")
	writerBlockFile = bindingFile("a writer memory, conditions expected",
		"writer: {bindings: []}\nexpect: [{kind: Binding, namespace: team-a, name: chat, conditions: []}]\n")
	proberFile = bindingFile("a prober schedule",
		"prober: {lastPassStart: \"2026-11-30T09:55:00Z\"}\nexpect: [{kind: Prober, name: default, pass: {start: true}}]\n")
)

func parse(t *testing.T, s string) *File {
	t.Helper()
	f, err := Parse([]byte(s))
	require.NoError(t, err)
	return f
}

func TestFile_Parts(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []Part
	}{
		{engineFile, []Part{PartEngine}},
		{writerFile, []Part{PartEngine, PartWriter}},
		{writerBlockFile, []Part{PartEngine, PartWriter}},
		{proberFile, []Part{PartProber}},
	} {
		f := parse(t, tc.file)
		assert.Equal(t, tc.want, f.Parts(), f.Name)
	}
}

// A runner that answers for Bindings alone, as a host without a writer
// or prober of its own does.
func bindingsOnly(f *File) ([]Outcome, error) {
	return []Outcome{{Kind: "Binding", Namespace: "team-a", Name: "chat"}}, nil
}

func TestRunners_Modelling_SkipsWhatTheHostDoesNotModel(t *testing.T) {
	rs := Runners{"binding": bindingsOnly}

	// Without a declaration the prober file fails, as before.
	res := rs.Run(parse(t, proberFile))
	assert.True(t, res.Failed())
	assert.Contains(t, res.Diff, "not evaluated")

	engineOnly := rs.Modelling(PartEngine)
	res = engineOnly.Run(parse(t, proberFile))
	assert.False(t, res.Failed(), res.Diff)
	assert.False(t, res.Passed())
	assert.Equal(t, "needs the prober, which this host does not model", res.Skip)

	res = engineOnly.Run(parse(t, writerFile))
	assert.Equal(t, "needs the writer, which this host does not model", res.Skip)

	res = engineOnly.Run(parse(t, engineFile))
	assert.Empty(t, res.Skip)
	assert.True(t, res.Passed(), res.Diff)

	res = Runners{"binding": bindingsOnly}.Modelling().Run(parse(t, writerFile))
	assert.Equal(t, "needs the engine and the writer, which this host does not model", res.Skip)

	// The declaration does not change the runners it was made from.
	assert.True(t, rs.Run(parse(t, proberFile)).Failed())
}

// A runner may skip a file itself by returning a *NotModelledError,
// wrapped or not; any other error still fails the file.
func TestRunners_Run_NotModelledErrorSkips(t *testing.T) {
	skip := Runners{"binding": func(*File) ([]Outcome, error) {
		return nil, errors.Join(errors.New("host"), &NotModelledError{Parts: []Part{PartProber}})
	}}
	res := skip.Run(parse(t, proberFile))
	assert.Equal(t, "needs the prober, which this host does not model", res.Skip)
	assert.NoError(t, res.Err)

	broken := Runners{"binding": func(*File) ([]Outcome, error) { return nil, errors.New("bad manifest") }}
	res = broken.Run(parse(t, proberFile))
	assert.Empty(t, res.Skip)
	assert.True(t, res.Failed())
}

// A manifest stream given where a scenario is expected is named as such,
// whether it holds one object or several.
func TestLoad_ManifestIsNamed(t *testing.T) {
	dir := t.TempDir()
	one := "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {name: a, namespace: b}\n"
	for name, body := range map[string]string{"one.yaml": one, "stream.yaml": one + "---\n" + one} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		_, err := Load(p)
		require.ErrorIs(t, err, ErrManifest, name)
		assert.Contains(t, err.Error(), "document 1, line 1: the file holds Kubernetes manifests (a Binding), not a scenario", name)
	}
	parse(t, engineFile)
}

// The kind in that error takes the article it is read with.
func TestLoad_ManifestKindWithItsArticle(t *testing.T) {
	for kind, want := range map[string]string{"AgentBackend": "(an AgentBackend)", "ChatConnection": "(a ChatConnection)", "Offering": "(an Offering)"} {
		_, err := Parse([]byte("apiVersion: v1\nkind: " + kind + "\nmetadata: {name: a}\n"))
		require.ErrorIs(t, err, ErrManifest, kind)
		assert.Contains(t, err.Error(), want)
	}
}
