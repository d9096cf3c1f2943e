// Command dbctl is condengine's command for the Database system alone:
// eval, check, explain, vocab, conform and reference of Databases.
package main

import (
	"github.com/condengine/condengine/cmd/cli"
	"github.com/condengine/condengine/examples/database/dbsystem"
)

//go:generate go run . vocab -out ../../database/docs

func main() { cli.Main("dbctl", dbsystem.System()) }
