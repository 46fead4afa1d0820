package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"

	flag "github.com/spf13/pflag"
	"github.com/stretchr/testify/require"
)

// docFlagRows reads the flags named in the first cell of docs/cli.md's flag
// table rows ("| `-name` | default | what |"; an alias or a shorthand may
// share the cell: "| `-stages`, `-train-levels` | …").
func docFlagRows(t *testing.T, doc string) map[string]bool {
	name := regexp.MustCompile("`--?([A-Za-z0-9][A-Za-z0-9-]*)`")
	rows := map[string]bool{}
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "| `-") {
			continue
		}
		cells := strings.Split(line, "|")
		require.GreaterOrEqualf(t, len(cells), 5, "docs/cli.md: a flag row has three cells (| -name | default | what |): %q", line)
		for _, m := range name.FindAllStringSubmatch(cells[1], -1) {
			rows[m[1]] = true
		}
	}
	return rows
}

// TestDocCLIListsEveryFlag: docs/cli.md has a row for every flag of the
// command, and documents no flag the command does not have.
func TestDocCLIListsEveryFlag(t *testing.T) {
	raw, err := os.ReadFile("../docs/cli.md")
	require.NoError(t, err)
	rows := docFlagRows(t, string(raw))
	fs, _ := newFlagSet()
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		require.Truef(t, rows[f.Name], "docs/cli.md has no row for -%s (%q)", f.Name, f.Usage)
	})
	require.Greater(t, n, 30)
	for name := range rows {
		f := fs.Lookup(name) // normalized: -train-levels is -stages
		if f == nil && len(name) == 1 {
			f = fs.ShorthandLookup(name)
		}
		require.NotNilf(t, f, "docs/cli.md documents -%s, which is not a flag of simdrl", name)
	}
}
