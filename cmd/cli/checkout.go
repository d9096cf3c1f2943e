package cli

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"

	"github.com/condengine/condengine/scenario"
)

// checkWriters are the machine formats of `check -o`; report writes text.
// Each takes the program's name, which the JUnit suites carry.
var checkWriters = map[string]func(w io.Writer, program string, results []scenario.Result) error{
	"json":  writeCheckJSON,
	"junit": writeCheckJUnit,
}

// checkJSON is the document `check -o json` prints.
type checkJSON struct {
	Passed    int            `json:"passed"`
	Failed    int            `json:"failed"`
	Scenarios []scenarioJSON `json:"scenarios"`
}

type scenarioJSON struct {
	Path       string         `json:"path"`
	Name       string         `json:"name,omitempty"`
	System     string         `json:"system,omitempty"`
	Passed     bool           `json:"passed"`
	Error      string         `json:"error,omitempty"`
	Mismatches []mismatchJSON `json:"mismatches,omitempty"`
}

// mismatchJSON is a scenario.Mismatch with want and got as JSON values:
// "OK", 1, true as themselves, not as strings that hold their JSON. A
// phrase that is no JSON value ("(absent)", "an outcome") stays a string.
type mismatchJSON struct {
	Object string          `json:"object"`
	Field  string          `json:"field,omitempty"`
	Want   json.RawMessage `json:"want"`
	Got    json.RawMessage `json:"got"`
}

func newMismatchJSON(m scenario.Mismatch) mismatchJSON {
	return mismatchJSON{Object: m.Object, Field: m.Field, Want: jsonValue(m.Want), Got: jsonValue(m.Got)}
}

// jsonValue is s when s is one JSON value, and s as a JSON string
// otherwise.
func jsonValue(s string) json.RawMessage {
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

func writeCheckJSON(w io.Writer, _ string, results []scenario.Result) error {
	doc := checkJSON{Scenarios: make([]scenarioJSON, 0, len(results))}
	for _, r := range results {
		s := scenarioJSON{Path: r.Path, Passed: r.Passed()}
		for _, m := range r.Mismatches {
			s.Mismatches = append(s.Mismatches, newMismatchJSON(m))
		}
		if r.File != nil {
			s.Name, s.System = r.File.Name, r.File.System
		}
		if r.Err != nil {
			s.Error = oneLine(r.Err.Error())
		}
		if s.Passed {
			doc.Passed++
		} else {
			doc.Failed++
		}
		doc.Scenarios = append(doc.Scenarios, s)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// The JUnit XML shape CI systems read: one testsuite per system, one
// testcase per file, a failure per failed expectation block, an error
// for a file that could not be run.
type junitSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	junitCounts
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name string `xml:"name,attr"`
	junitCounts
	Cases []junitCase `xml:"testcase"`
}

// junitCounts are the counts of a testsuites or testsuite element: its
// cases, failed ones and ones that could not be run.
type junitCounts struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
}

func (c *junitCounts) add(o junitCounts) {
	c.Tests += o.Tests
	c.Failures += o.Failures
	c.Errors += o.Errors
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

func writeCheckJUnit(w io.Writer, program string, results []scenario.Result) error {
	doc := junitSuites{}
	suites := map[string]int{}
	for _, r := range results {
		system := "unloadable"
		name := scenario.TestName(r.Path)
		if r.File != nil {
			system = r.File.System
		}
		i, ok := suites[system]
		if !ok {
			i = len(doc.Suites)
			suites[system] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: program + " check " + system})
		}
		s := &doc.Suites[i]
		c := junitCase{Name: name, Classname: program + "." + system, File: r.Path}
		switch {
		case r.Err != nil:
			c.Error = &junitProblem{Message: oneLine(r.Err.Error()), Type: "error", Text: r.Err.Error()}
			s.Errors++
		case r.Diff != "":
			c.Failure = &junitProblem{Message: fmt.Sprintf("%d expectation(s) do not hold", len(r.Mismatches)), Type: "mismatch",
				Text: r.File.Name + "\n" + r.Diff}
			s.Failures++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	for _, s := range doc.Suites {
		doc.add(s.junitCounts)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
