// Package register holds the scheme registration the module's API
// groups share: every kind of one group version, with its List, plus the
// meta/v1 types a client needs beside them. Each group's
// groupversion_info.go names its kinds and calls Builder once.
package register
