package calc

import (
	"slices"
	"sync"
)

//go:generate go run ./internal/gentable

// The search's results are kept for the process: a level is searched once
// per function it computes (functionKey: a*b, (a*b) and b*a share one) and
// depth, however many specs name it. The default curriculum is not searched
// at all: its shortest programs are a generated table (default_programs.go,
// written by internal/gentable from Search), and a table entry is still
// checked with computesOn on up to tableCheckTuples tuples before use (the
// tests check every entry on every tuple and regenerate the table).

type searchKey struct {
	function string
	depth    int
}

var searchCache sync.Map // searchKey → SearchResult

// treeCache is searchCache for decision trees (SearchTree), whose Tree is
// shared and read-only.
var treeCache sync.Map // searchKey → TreeResult

// tableCheckTuples is how many tuples a table entry is checked on at parse
// time: every tuple of levels up to four digits, a sample beyond, because
// the whole 10^6 of a*b+c*d-e*f would cost more than the rest of the parse
// (docs/performance.md, "Searches and generated tables").
const tableCheckTuples = 10_000

// recall returns a remembered search of e to depth, or the default table's.
func recall(e *Expr, depth int) (SearchResult, bool) {
	if prog, ok := defaultPrograms[e.Canonical()]; ok && depth <= MaxSearchLen && computesOn(e, prog, tableCheckTuples) {
		if len(prog) > depth {
			return SearchResult{}, true // the shortest is longer
		}
		return SearchResult{Program: slices.Clone(prog)}, true
	}
	if r, ok := searchCache.Load(searchKey{e.functionKey(), depth}); ok {
		r := r.(SearchResult)
		r.Program = slices.Clone(r.Program)
		return r, true
	}
	return SearchResult{}, false
}

// remember keeps a search's result for the process.
func remember(e *Expr, depth int, r SearchResult) {
	r.Program = slices.Clone(r.Program)
	searchCache.Store(searchKey{e.functionKey(), depth}, r)
}
