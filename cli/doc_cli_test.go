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
// share the cell: "| `-stages`, `-train-levels` | …"): the train command's.
func docFlagRows(t *testing.T, doc string) map[string]bool {
	return docFlagTables(t, doc)[""]
}

// sweepVerbHeading heads a sweep verb's section in docs/cli.md, whose flag
// table is that verb's: "### `simdrl sweep slurm`".
var sweepVerbHeading = regexp.MustCompile("^### `simdrl sweep ([a-z0-9-]+)")

// docFlagTables reads every flag table of docs/cli.md: the rows under a
// sweep verb's heading by the verb's name, the others under "" (the train
// command's).
func docFlagTables(t *testing.T, doc string) map[string]map[string]bool {
	name := regexp.MustCompile("`--?([A-Za-z0-9][A-Za-z0-9-]*)`")
	tables := map[string]map[string]bool{"": {}}
	section := ""
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "#") {
			section = ""
			if m := sweepVerbHeading.FindStringSubmatch(line); m != nil {
				section = m[1]
			}
		}
		if !strings.HasPrefix(line, "| `-") {
			continue
		}
		cells := strings.Split(line, "|")
		require.GreaterOrEqualf(t, len(cells), 5, "docs/cli.md: a flag row has three cells (| -name | default | what |): %q", line)
		if tables[section] == nil {
			tables[section] = map[string]bool{}
		}
		for _, m := range name.FindAllStringSubmatch(cells[1], -1) {
			tables[section][m[1]] = true
		}
	}
	return tables
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
