// Package importcheck is the env packages' import tests' one check: a
// package imports the standard library and the module packages it names,
// nothing else (no task, gru, trainer or engine), so that every engine and
// plug-in can use it.
package importcheck

import (
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Disallowed reads the imports of every Go file in dir but its tests and
// returns how many files it read and, for each import neither of the
// standard library (a path whose first element has no dot) nor in allowed,
// "file imports path".
func Disallowed(dir string, allowed ...string) (files int, bad []string, err error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 0, nil, err
	}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, name, nil, goparser.ImportsOnly)
		if err != nil {
			return files, bad, err
		}
		files++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			std := !strings.Contains(strings.Split(path, "/")[0], ".")
			if !std && !slices.Contains(allowed, path) {
				bad = append(bad, filepath.Base(name)+" imports "+path)
			}
		}
	}
	return files, bad, nil
}
