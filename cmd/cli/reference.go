package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/redact"
	"github.com/condengine/condengine/system"
)

// runReference answers the conform protocol with this engine: a
// capabilities line declaring every decision key, then one answer line
// per request line, echoing its id, until stdin ends. A line that breaks
// the protocol's limits (over 16 MiB, not UTF-8, not exactly one JSON
// object) or a request it cannot read ends the run with exit 1 and the
// request and the broken limit named on stderr, so a conform run reports
// it as a crash rather than as an answer.
func runReference(e env, args []string) int {
	fs := newFlags(e, "reference", "reference --system "+strings.Join(e.names(), "|"))
	systemName := fs.String("system", "", "the system of the requests: "+e.systemNames())
	if code, ok := parseArgless(e, fs, args, ""); !ok {
		return code
	}
	sys := e.find(*systemName)
	if sys == nil {
		return usageError(e, "reference", "--system must be %s", e.systemNames())
	}
	in := bufio.NewReaderSize(e.stdin, 1<<16)
	out := bufio.NewWriter(e.stdout)
	caps, _ := json.Marshal(conformance.Capabilities{Capabilities: conformance.DecisionKeys()})
	out.Write(caps)
	out.WriteByte('\n')
	if err := out.Flush(); err != nil {
		e.errorf("reference", "%v", err)
		return exitFail
	}
	for n := 1; ; {
		line, err := readLine(in, conformance.MaxLineBytes)
		if errors.Is(err, io.EOF) {
			return exitOK
		}
		if errors.Is(err, errLongLine) {
			e.errorf("reference", "request %d: the line is over the protocol's limit of %d bytes (16 MiB)", n, conformance.MaxLineBytes)
			return exitFail
		}
		if err != nil {
			e.errorf("reference", "request %d: %v", n, err)
			return exitFail
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue // blank lines are not requests
		}
		answer, err := answerRequest(line, sys)
		if err != nil {
			e.errorf("reference", "request %d: %s", n, echo(err))
			return exitFail
		}
		out.Write(answer)
		out.WriteByte('\n')
		if err := out.Flush(); err != nil {
			e.errorf("reference", "%v", err)
			return exitFail
		}
		n++
	}
}

// answerRequest is the answer line to one request line, echoing its id.
// A request without an id is refused: an answer without one would break
// the protocol, and one with a made-up id would be matched to the wrong
// request (docs/decisions/conform-protocol.md).
func answerRequest(line []byte, sys *system.System) ([]byte, error) {
	id, f, err := conformance.DecodeRequest(line, sys.Name)
	if err != nil {
		return nil, err
	}
	if id == nil {
		return nil, errNoID
	}
	objs, err := conformance.Reference(sys)(f)
	if err != nil {
		return nil, err
	}
	return conformance.EncodeReply(*id, objs, nil)
}

var errNoID = errors.New(`the request has no "id": every request carries an integer id, which its answer echoes`)

// maxEcho bounds the text of one refusal on stderr, which may quote the
// request (a key, a value); a line of the protocol can be 16 MiB.
const maxEcho = 1024

// echo is err's text as one line of at most maxEcho bytes, marked where
// it was cut.
func echo(err error) string {
	// Clipped first so that oneLine works on a bounded text; it only
	// shortens it.
	return redact.Clip(oneLine(redact.Clip(err.Error(), 4*maxEcho)), maxEcho)
}
