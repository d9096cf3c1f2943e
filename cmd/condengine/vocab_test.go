package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/condengine/condengine/conformance"
)

const docsDir = "../../docs/vocabulary"

func TestVocab_Golden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"vocab-binding.md", []string{"vocab", "binding"}},
		{"vocab-subscription.md", []string{"vocab", "Subscription", "-o", "markdown"}},
		{"vocab.json", []string{"vocab", "-o", "json"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			runGolden(t, tc.golden, tc.args...)
		})
	}
}

// The JSON lists every kind, type and reason of the vocabularies, so
// tools reading it see what the validator enforces.
func TestVocab_JSONListsEveryReason(t *testing.T) {
	_, out, _ := run(t, "", "vocab", "-o", "json")
	var got []struct {
		Kind  string
		Types []struct {
			Reasons []struct {
				Status, Reason string
				Terminal       bool
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	vs := conformance.Vocabularies(seedSystems()...)
	if len(got) != len(vs) {
		t.Fatalf("%d kinds, want %d", len(got), len(vs))
	}
	for i, v := range vs {
		if got[i].Kind != v.Kind() {
			t.Errorf("kind %d is %s, want %s", i, got[i].Kind, v.Kind())
		}
		for j, typ := range v.Types() {
			for k, r := range typ.Reasons {
				g := got[i].Types[j].Reasons[k]
				if g.Reason != r.Reason || g.Status != string(r.Status) || g.Terminal != r.Terminal {
					t.Errorf("%s %s reason %d: got %+v, want %+v", v.Kind(), typ.Name, k, g, r)
				}
			}
		}
	}
}

func TestVocab_UnknownKindListsTheKnownOnes(t *testing.T) {
	code, _, errs := run(t, "", "vocab", "Pod")
	if code != exitUsage || !strings.Contains(errs, "known kinds: Binding, PriceBook, Offering, Subscription") {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
}

// docs/vocabulary is generated; this test fails when it no longer matches
// the vocabularies (run `go generate ./cmd/condengine` to refresh it).
func TestVocabularyDocs_NotStale(t *testing.T) {
	want := vocabularyDocs(conformance.Vocabularies(seedSystems()...))
	entries, err := os.ReadDir(docsDir)
	if err != nil {
		t.Fatalf("%v: run go generate ./cmd/condengine", err)
	}
	var onDisk []string
	for _, e := range entries {
		onDisk = append(onDisk, e.Name())
	}
	var names []string
	for name := range want {
		names = append(names, name)
	}
	slices.Sort(names)
	if !cmp.Equal(onDisk, names) {
		t.Errorf("docs/vocabulary holds %v, want %v: run go generate ./cmd/condengine", onDisk, names)
	}
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(docsDir, name))
		if err != nil {
			t.Errorf("%v: run go generate ./cmd/condengine", err)
			continue
		}
		if d := cmp.Diff(string(want[name]), string(got)); d != "" {
			t.Errorf("docs/vocabulary/%s is stale: run go generate ./cmd/condengine (-want +got):\n%s", name, d)
		}
	}
}

func TestVocab_OutWritesTheDocs(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, "", "vocab", "-o", "markdown", "-out", dir); code != exitOK {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	for name, data := range vocabularyDocs(conformance.Vocabularies(seedSystems()...)) {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != string(data) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if code, _, _ := run(t, "", "vocab", "Binding", "-out", dir); code != exitUsage {
		t.Errorf("-out with a KIND: code %d, want %d", code, exitUsage)
	}
}

// finops-decisions 23: the settlement gate is kept as documented, and the
// vocab output warns of its hazard, in both formats.
func TestVocab_WarnsOfTheSettlementGateHazard(t *testing.T) {
	for _, args := range [][]string{{"vocab", "subscription"}, {"vocab", "-o", "json"}} {
		_, out, _ := run(t, "", args...)
		if !strings.Contains(out, "Hazard: the finalizer is released once the hour holding deactivatedAt is settled") {
			t.Errorf("condengine %s does not warn of the settlement gate's hazard", strings.Join(args, " "))
		}
	}
}
