package cli

import (
	"fmt"
	"strings"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/vocab"
)

//go:generate go test -run TestVocab_Golden . -update

func runVocab(e env, args []string) int {
	c := e.Command
	fs := newFlags(e, "vocab", "vocab [KIND] [-o markdown|json] [-out DIR]")
	format := oneOf(fs, "o", "output `format`", "markdown", "json")
	out := fs.String("out", "", "write one markdown file per kind and an index into `DIR` (the docs/vocabulary files)")
	pos, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 1 {
		return usageError(e, "vocab", "at most one KIND, got %d", len(pos))
	}
	vocabs := c.vocabularies()
	if len(pos) == 1 {
		v := findVocabulary(vocabs, pos[0])
		if v == nil {
			return usageError(e, "vocab", "unknown kind %q; known kinds: %s", pos[0], strings.Join(kindNames(vocabs), ", "))
		}
		vocabs = []*conditions.Vocabulary{v}
	}
	if *out != "" {
		if *format != "markdown" || len(pos) != 0 {
			return usageError(e, "vocab", "-out writes the markdown of every kind; give neither KIND nor -o json with it")
		}
		if err := vocab.WriteDocs(*out, vocabs, c.rules(), c.vocabularyNote(*out)); err != nil {
			e.errorf("vocab", "%v", err)
			return exitFail
		}
		return exitOK
	}
	var err error
	if *format == "json" {
		err = vocab.JSON(e.stdout, vocabs)
	} else {
		for i, v := range vocabs {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			if err = vocab.Markdown(e.stdout, v, c.rules()); err != nil {
				break
			}
		}
	}
	if err != nil {
		e.errorf("vocab", "%v", err)
		return exitFail
	}
	return exitOK
}

func findVocabulary(vs []*conditions.Vocabulary, kind string) *conditions.Vocabulary {
	for _, v := range vs {
		if strings.EqualFold(v.Kind(), kind) {
			return v
		}
	}
	return nil
}

func kindNames(vs []*conditions.Vocabulary) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Kind()
	}
	return out
}

// vocabularyNote is the note of the index of the docs written to dir.
func (c *Command) vocabularyNote(dir string) string {
	return c.generatedBy(c.Name+" vocab -o markdown -out "+dir) + " from the vocabulary tables the engine validates against. " + c.doNotEdit("these files are") + "\n\n"
}
