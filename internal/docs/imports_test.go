package docs

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/simdrl/simdrl/"

// docGraph parses docs/architecture.md's import graph (the indented lines after
// "Imports point down only"): "a, b → c, d   (comment)" says that a and b
// import exactly c and d of the project; "→ nothing of the project", none.
func docGraph(t *testing.T) map[string][]string {
	raw, err := os.ReadFile("../../docs/architecture.md")
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(raw), "Imports point down only")
	require.True(t, ok, "docs/architecture.md has no import graph")
	comment := regexp.MustCompile(`\(.*\)`)
	graph := map[string][]string{}
	lines := strings.Split(after, "\n")[1:]
	for _, line := range lines {
		if strings.TrimSpace(line) == "" {
			if len(graph) > 0 {
				break
			}
			continue
		}
		require.Truef(t, strings.HasPrefix(line, "    "), "docs/architecture.md's import graph ends without a blank line: %q", line)
		lhs, rhs, ok := strings.Cut(comment.ReplaceAllString(line, ""), "→")
		require.Truef(t, ok, "no → in %q", line)
		var imports []string
		if rhs = strings.TrimSpace(rhs); rhs != "nothing of the project" {
			for _, p := range strings.Split(rhs, ",") {
				imports = append(imports, strings.TrimSpace(p))
			}
		}
		slices.Sort(imports)
		for _, p := range strings.Split(lhs, ",") {
			p = strings.TrimSpace(p)
			_, dup := graph[p]
			require.Falsef(t, dup, "docs/architecture.md lists %s twice", p)
			graph[p] = imports
		}
	}
	return graph
}

// TestDocImportGraph: every package of the module imports exactly the
// project packages docs/architecture.md says it does, and the page lists no
// package that does not exist.
func TestDocImportGraph(t *testing.T) {
	graph := docGraph(t)
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}:{{range .Imports}} {{.}}{{end}}`, "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		pkg = strings.TrimPrefix(pkg, module)
		var project []string
		for _, imp := range strings.Fields(imports) {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				project = append(project, rel)
			}
		}
		slices.Sort(project)
		want, ok := graph[pkg]
		require.Truef(t, ok, "docs/architecture.md's import graph does not list %s (it imports %v)", pkg, project)
		require.Equalf(t, want, project, "docs/architecture.md's import graph is wrong about %s", pkg)
		seen[pkg] = true
	}
	for pkg := range graph {
		require.Truef(t, seen[pkg], "docs/architecture.md's import graph lists %s, which is not a package", pkg)
	}
}
