// Package genstream writes large manifest streams of Agent Kourier
// objects for measuring `condengine eval`: Bindings spread over
// namespaces, each namespace with its own ChatConnection and AgentBackend,
// every tenth Binding contending for a channel the previous one holds,
// and every Binding carrying a status a broker wrote earlier. The program
// in ./genstream prints one.
package genstream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"
)

// Write writes n Bindings over the given number of namespaces (at least
// one), each namespace with one ChatConnection and one AgentBackend, as a
// YAML stream of about 530 bytes per Binding.
func Write(w io.Writer, n, namespaces int) error {
	if n < 0 || namespaces < 1 {
		return fmt.Errorf("genstream: n must be >= 0 and namespaces >= 1")
	}
	for ns := 0; ns < namespaces; ns++ {
		if _, err := fmt.Fprintf(w, `apiVersion: agentkourier.dev/v1alpha1
kind: ChatConnection
metadata: {namespace: team-%[1]d, name: slack, uid: c-%[1]d, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec: {platform: slack, tokenSecretRef: {name: slack-bot-token, key: token}}
---
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: team-%[1]d, name: echo, uid: a-%[1]d, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec: {url: "https://echo.team-%[1]d.svc.cluster.local"}
---
`, ns); err != nil {
			return err
		}
	}
	for i := 0; i < n; i++ {
		ns := i % namespaces
		channel := fmt.Sprintf("C%07d", i)
		if i%10 == 9 {
			channel = fmt.Sprintf("C%07d", i-1) // taken by the previous, older Binding
		}
		if _, err := fmt.Fprintf(w, `apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata:
  namespace: team-%[1]d
  name: chat-%[2]d
  uid: 6f1c2a3b-%08[2]d-4000-8000-00000000%04[1]d
  generation: 1
  creationTimestamp: "2026-11-29T%02[3]d:%02[4]d:%02[5]dZ"
spec:
  agent: {backendRef: {name: echo}}
  chat: {connectionRef: {name: slack}, channel: %[6]s}
status:
  conditions:
  - {type: Accepted, status: "True", reason: OK, observedGeneration: 1, lastTransitionTime: "2026-11-29T12:00:00Z"}
  - {type: Ready, status: Unknown, reason: Pending, observedGeneration: 1}
---
`, ns, i, (i/3600)%24, (i/60)%60, i%60, channel); err != nil {
			return err
		}
	}
	return nil
}

// WriteList writes what Write writes as one JSON List, as `kubectl get
// -o json` prints it when indent is four spaces: the List's apiVersion,
// its items, its kind, its metadata, in that order, each item's keys
// sorted. With indent "" the List is compact, on one line.
func WriteList(w io.Writer, n, namespaces int, indent string) error {
	open, sep, end := `{"apiVersion":"v1","items":[`, ",", `],"kind":"List","metadata":{"resourceVersion":""}}`
	if indent != "" {
		open = "{\n" + indent + `"apiVersion": "v1",` + "\n" + indent + `"items": [` + "\n" + indent + indent
		sep = ",\n" + indent + indent
		end = "\n" + indent + "],\n" + indent + `"kind": "List",` + "\n" + indent + `"metadata": {` + "\n" +
			indent + indent + `"resourceVersion": ""` + "\n" + indent + "}\n}\n"
	}
	if _, err := io.WriteString(w, open); err != nil {
		return err
	}
	// The stream is converted document by document as Write makes it,
	// so that a List of any size is written without holding it.
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(Write(pw, n, namespaces)) }()
	defer pr.Close()
	lines := bufio.NewScanner(pr)
	var doc, item bytes.Buffer
	items := 0
	flush := func() error {
		defer doc.Reset()
		if len(bytes.TrimSpace(doc.Bytes())) == 0 {
			return nil
		}
		js, err := yaml.YAMLToJSON(doc.Bytes())
		if err != nil {
			return fmt.Errorf("genstream: %w", err)
		}
		if items++; items > 1 {
			if _, err := io.WriteString(w, sep); err != nil {
				return err
			}
		}
		if indent != "" {
			item.Reset()
			if err := json.Indent(&item, js, indent+indent, indent); err != nil {
				return fmt.Errorf("genstream: %w", err)
			}
			js = item.Bytes()
		}
		_, err = w.Write(js)
		return err
	}
	for lines.Scan() {
		if lines.Text() == "---" {
			if err := flush(); err != nil {
				return err
			}
			continue
		}
		doc.Write(lines.Bytes())
		doc.WriteByte('\n')
	}
	if err := lines.Err(); err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, end)
	return err
}
