// Command genstream prints a manifest stream for measuring
// `condengine eval` on large inputs (see package genstream):
//
//	go run ./cmd/internal/genstream/genstream -n 100000 > /tmp/bindings.yaml
//	go run ./cmd/internal/genstream/genstream -n 100000 -list kubectl > /tmp/list.json
//	/usr/bin/time -v condengine eval -f /tmp/bindings.yaml -o yaml > /dev/null
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/condengine/condengine/cmd/internal/genstream"
)

func main() {
	n := flag.Int("n", 100000, "how many Bindings")
	namespaces := flag.Int("namespaces", 1000, "how many namespaces (each with one ChatConnection and one AgentBackend)")
	list := flag.String("list", "", `print one JSON List instead of a YAML stream: "compact", or "kubectl" as kubectl get -o json prints it (four spaces)`)
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	var err error
	switch *list {
	case "":
		err = genstream.Write(w, *n, *namespaces)
	case "compact":
		err = genstream.WriteList(w, *n, *namespaces, "")
	case "kubectl":
		err = genstream.WriteList(w, *n, *namespaces, "    ")
	default:
		err = fmt.Errorf("genstream: -list is compact or kubectl, not %q", *list)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "genstream:", err)
		os.Exit(1)
	}
}
