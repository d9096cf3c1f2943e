package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/vocab"
)

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
	vs := conformance.Vocabularies(seedCmd.Systems...)
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

func TestVocab_OutWritesTheDocs(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, "", "vocab", "-o", "markdown", "-out", dir); code != exitOK {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	for name, data := range vocab.Docs(seedCmd.vocabularies(), seedCmd.rules(), seedCmd.vocabularyNote(dir)) {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != string(data) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if code, _, _ := run(t, "", "vocab", "Binding", "-out", dir); code != exitUsage {
		t.Errorf("-out with a KIND: code %d, want %d", code, exitUsage)
	}
}

// The settlement gate is kept as documented, and the
// vocab output warns of its hazard, in both formats.
func TestVocab_WarnsOfTheSettlementGateHazard(t *testing.T) {
	for _, args := range [][]string{{"vocab", "subscription"}, {"vocab", "-o", "json"}} {
		_, out, _ := run(t, "", args...)
		if !strings.Contains(out, "Hazard: the finalizer is released once the hour holding deactivatedAt is settled") {
			t.Errorf("condengine %s does not warn of the settlement gate's hazard", strings.Join(args, " "))
		}
	}
}
