package cli

import (
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
		err = buildinfo.WriteText(e.stdout, e.Name, info)
	}
	if err != nil {
		e.errorf("version", "%v", err)
		return exitFail
	}
	return exitOK
}
