package calc

import (
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The package may import the standard library, rng and env/interp (its op
// table's type), nothing else of the module (no gru, trainer, gpu, nor the
// seed's env): every engine must be able to use it.
func TestImportsOnlyTheStandardLibraryRngAndInterp(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := goparser.ParseFile(fset, f, nil, goparser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first := strings.Split(path, "/")[0]
			ok := path == "github.com/simdrl/simdrl/rng" || path == "github.com/simdrl/simdrl/env/interp" || !strings.Contains(first, ".")
			require.True(t, ok, "%s imports %s", f, path)
		}
		checked++
	}
	require.Greater(t, checked, 5)
}
