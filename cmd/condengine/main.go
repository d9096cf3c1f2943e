// Command condengine shows what the Agent Kourier broker and the FinOps
// operator would write into the status of their objects, runs scenario
// files, and prints the condition vocabularies. See doc.go.
package main

import "os"

func main() {
	os.Exit(Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
