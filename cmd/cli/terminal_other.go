//go:build !linux

package cli

import "os"

// isTerminal reports whether f looks like a terminal: a character device.
// That also holds for /dev/null, for which the hint is printed in vain.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
