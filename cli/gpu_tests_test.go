package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// gpuTestPattern selects the tests of this package that need a GPU: CI runs
// only these on gpu/emu (`go test -run Cuda ./cli/`), the rest of the
// package runs in the plain suite.
const gpuTestPattern = "Cuda"

// TestEveryGPUTestIsNamedCuda: a test that reaches needGPU, directly or
// through a helper of this package, has gpuTestPattern in its name, so that
// the emulator's narrowed run (.ci/run) cannot silently leave it out.
func TestEveryGPUTestIsNamedCuda(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	require.NoError(t, err)
	calls := map[string][]string{} // function → the functions it names
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					calls[fn.Name.Name] = append(calls[fn.Name.Name], id.Name)
				}
				return true
			})
		}
	}
	reaches := map[string]bool{"needGPU": true}
	for changed := true; changed; {
		changed = false
		for fn, names := range calls {
			for _, n := range names {
				if reaches[n] && !reaches[fn] {
					reaches[fn], changed = true, true
				}
			}
		}
	}
	var gpuTests, misnamed []string
	for fn := range reaches {
		if strings.HasPrefix(fn, "Test") {
			gpuTests = append(gpuTests, fn)
			if !strings.Contains(fn, gpuTestPattern) {
				misnamed = append(misnamed, fn)
			}
		}
	}
	sort.Strings(misnamed)
	require.NotEmpty(t, gpuTests, "no test reaches needGPU: the search is broken")
	require.Empty(t, misnamed, "these tests need a GPU but are not named %q, so CI's gpu/emu run leaves them out", gpuTestPattern)
}
