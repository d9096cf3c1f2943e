package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// errLongLine is returned by readLine for a line over its limit.
var errLongLine = errors.New("line too long")

// readLine returns the next line of r without its newline, or io.EOF when
// r has ended. A last line without a newline is returned as a line. A
// line longer than max bytes is an error, read no further than max+1
// bytes into memory.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			return nil, fmt.Errorf("%w: more than %d bytes", errLongLine, max)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(line) == 0 {
				return nil, io.EOF
			}
			return line, nil
		default:
			return nil, err
		}
	}
}
