package redact_test

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/costjob"
)

// planted is a text to plant and the parts of it that must never show.
type planted struct {
	text    string
	secrets []string
}

// whole plants texts that must not show at all.
func whole(texts ...string) []planted {
	out := make([]planted, len(texts))
	for i, t := range texts {
		out[i] = planted{t, []string{t}}
	}
	return out
}

// plantedSecrets holds one secret of every family the rule table knows,
// as probe output, job errors and hand-edited statuses carry them:
// connection strings and zoned addresses with the parts of them that
// must not show.
var plantedSecrets = append(whole(
	"xoxb-123456789012-abcdefghijkl", "AKIAIOSFODNN7EXAMPLE", "ASIAY34FZKBOKMUTVV7A",
	"ghp_16C7e42F292c6912E7710c838347Ae178B4a", "github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789",
	"sk_live_4eC39HqLyjWDarjtT1zdp7dc", "glpat-Xy12Ab34Cd56Ef78Gh90", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
	"10.0.0.7", "2001:db8::7", "redis-master:6379", "api.example.com:443", "ops@corp.example.com",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "0123456789abcdef0123456789abcdef",
	"hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "sq0atp-0123456789abcdefghijkl", "db.internal.corp%3A5432",
	"0x0a.0.0.7", "0300.0250.0.01", "fe80%3A%3A1", "%5B2001%3Adb8%3A%3A7%5D%3A8443",
	"Xk9mP2qL7vNw", "r4PZozCXKuuGNg",
),
	planted{"DefaultEndpointsProtocol=https;AccountName=q9acct;AccountKey=c2VjcmV0a2V5;EndpointSuffix=q9corp.internal",
		[]string{"q9acct", "c2VjcmV0a2V5", "q9corp"}},
	planted{"BlobEndpoint=q9blob.corp.internal;SharedAccessSignature=sv=2021-06-08&ss=q9ss&srt=o&sig=q9sig",
		[]string{"q9blob", "q9ss", "q9sig"}},
	planted{"Endpoint=sb://q9bus.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=q9key12345",
		[]string{"q9bus", "q9key12345"}},
	planted{"fe80%3A%3A1%25q9zone", []string{"q9zone", "fe80"}},
	planted{"%5Bfe80%3A%3A7%25q9zn%5D%3A8443", []string{"q9zn", "fe80"}},
	planted{"[fe80::1%25q9if]:80", []string{"q9if", "fe80"}},
)

// shows reports the first of p's secrets that s shows, or "".
func (p planted) shows(s string) string {
	for _, x := range p.secrets {
		if strings.Contains(s, x) {
			return x
		}
	}
	return ""
}

// plantedText puts a secret in one of the shapes foreign text has, some
// of which hide it by their own rule (a PEM block, a percent-encoded
// URL, "password is", key=value).
func plantedText(t *rapid.T, secret string) string {
	before := rapid.SampledFrom([]string{"", "error: ", "dial tcp ", "run failed (", "x "}).Draw(t, "before")
	after := rapid.SampledFrom([]string{"", ": connection refused", ")", " after 3 attempts", "\nstack trace"}).Draw(t, "after")
	switch rapid.IntRange(0, 5).Draw(t, "shape") {
	case 1:
		secret = "token=" + secret
	case 2:
		secret = "-----BEGIN PRIVATE KEY-----\n" + secret + "\n-----END PRIVATE KEY-----"
	case 3:
		secret = "https%3A%2F%2Fuser%3A" + secret + "%40git.internal"
	case 4:
		secret = "the password is " + secret
	}
	return before + secret + after
}

// A secret of any family planted in the foreign text that reaches a
// status (a CostJob run's error, which lands in executionHistory; a
// Binding's probe errors and card bodies) never shows in it.
func TestStatus_PropertyPlantedSecretsNeverSurvive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.SampledFrom(plantedSecrets).Draw(t, "secret")

		job := finopsv1.CostJob{}
		job.Namespace, job.Name = "finops", "nightly"
		st, _, err := costjob.Record(job, finopsv1.ExecutionRecord{
			ExecutionTime: metav1.Unix(1, 0), Status: finopsv1.Failed, Error: plantedText(t, p.text)})
		if err != nil {
			t.Fatal(err)
		}
		if got := st.ExecutionHistory[0].Error; p.shows(got) != "" {
			t.Fatalf("CostJob executionHistory shows %q: %q", p.shows(got), got)
		}

		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		for i := range s.Probes {
			if b := s.Probes[i].Backend; b != nil {
				b.Error = plantedText(t, p.text)
				if b.Card == nil {
					b.Body = []byte(plantedText(t, p.text))
				}
			}
			if c := s.Probes[i].Channel; c != nil {
				c.Error = plantedText(t, p.text)
			}
		}
		r, err := binding.Evaluate(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range r.Bindings {
			for _, c := range b.Conditions {
				if x := p.shows(c.Message); x != "" {
					t.Fatalf("Binding %s/%s %s shows %q: %q", b.Namespace, b.Name, c.Type, x, c.Message)
				}
			}
		}
	})
}
