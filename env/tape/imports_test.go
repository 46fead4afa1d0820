package tape

import (
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The package imports the standard library and the hold-out rule
// (env/internal/holdout) only (no task, gru, trainer or engine): its
// plug-in wraps it.
func TestImportsOnlyTheStandardLibrary(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := goparser.ParseFile(fset, f, nil, goparser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			ok := path == "github.com/simdrl/simdrl/env/internal/holdout" || !strings.Contains(strings.Split(path, "/")[0], ".")
			require.True(t, ok, "%s imports %s", f, path)
		}
	}
}
