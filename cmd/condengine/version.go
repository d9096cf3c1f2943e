package main

import (
	"fmt"

	"github.com/condengine/condengine/cmd/internal/buildinfo"
)

func runVersion(e env, args []string) int {
	fs := newFlags(e, "version", "version [-o text|json]")
	format := oneOf(fs, "o", "output `format`", "text", "json")
	if code, ok := parseArgless(e, fs, args, ""); !ok {
		return code
	}
	info := buildinfo.Read()
	var err error
	if *format == "json" {
		err = buildinfo.WriteJSON(e.stdout, info)
	} else {
		err = buildinfo.WriteText(e.stdout, "condengine", info)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "condengine version: %v\n", err)
		return exitFail
	}
	return exitOK
}
