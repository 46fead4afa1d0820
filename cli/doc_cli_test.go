package cli

import (
	"bytes"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	flag "github.com/spf13/pflag"
	"github.com/stretchr/testify/require"
)

// docFlagRows reads the flags named in the first cell of docs/cli.md's flag
// table rows ("| `-name` | default | what |"; an alias or a shorthand may
// share the cell: "| `-stages`, `-train-levels` | …"), by command: a row
// under a heading "### `simdrl sweep VERB`" (up to the next heading) is
// that verb's, any other the train command's ("").
func docFlagRows(t *testing.T, doc string) map[string]map[string]bool {
	name := regexp.MustCompile("`--?([A-Za-z0-9][A-Za-z0-9-]*)`")
	section := regexp.MustCompile("^#+ `simdrl (sweep [a-z0-9-]+)`")
	rows := map[string]map[string]bool{"": {}}
	command := ""
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "#") {
			command = ""
			if m := section.FindStringSubmatch(line); m != nil {
				command = m[1]
				rows[command] = map[string]bool{}
			}
		}
		if !strings.HasPrefix(line, "| `-") {
			continue
		}
		cells := strings.Split(line, "|")
		require.GreaterOrEqualf(t, len(cells), 5, "docs/cli.md: a flag row has three cells (| -name | default | what |): %q", line)
		for _, m := range name.FindAllStringSubmatch(cells[1], -1) {
			rows[command][m[1]] = true
		}
	}
	return rows
}

// TestDocCLIListsEveryFlag: docs/cli.md has a row for every flag of the
// command, and documents no flag the command does not have.
func TestDocCLIListsEveryFlag(t *testing.T) {
	raw, err := os.ReadFile("../docs/cli.md")
	require.NoError(t, err)
	rows := docFlagRows(t, string(raw))[""]
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

// TestDocCLIListsEverySweepVerb: docs/cli.md has a section "### `simdrl
// sweep VERB`" for every verb, whose table has a row for each flag its -h
// lists and for no other.
func TestDocCLIListsEverySweepVerb(t *testing.T) {
	raw, err := os.ReadFile("../docs/cli.md")
	require.NoError(t, err)
	rows := docFlagRows(t, string(raw))
	long := regexp.MustCompile(`^\s+(?:-([a-zA-Z]), )?--([a-z0-9-]+)`)
	sweepVerbsMu.Lock()
	verbs := slices.Collect(maps.Keys(sweepVerbs))
	sweepVerbsMu.Unlock()
	require.NotEmpty(t, verbs)
	for _, verb := range verbs {
		var out bytes.Buffer
		require.Equal(t, 0, sweepCommand([]string{verb, "-h"}, Env{Stdout: &out, Stderr: io.Discard}), verb)
		documented, ok := rows["sweep "+verb]
		require.Truef(t, ok, "docs/cli.md has no section ### `simdrl sweep %s`", verb)
		flags := map[string]bool{}
		for _, line := range strings.Split(out.String(), "\n") {
			if m := long.FindStringSubmatch(line); m != nil {
				flags[m[2]] = true
				require.Truef(t, documented[m[2]], "docs/cli.md's sweep %s has no row for --%s", verb, m[2])
				if m[1] != "" {
					flags[m[1]] = true
				}
			}
		}
		require.NotEmpty(t, flags, "sweep %s -h lists no flags", verb)
		for name := range documented {
			require.Truef(t, flags[name], "docs/cli.md documents --%s for sweep %s, which has no such flag", name, verb)
		}
	}
}
