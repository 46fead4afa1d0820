package calc

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The generated table holds what Search finds for every default level, and
// each entry computes its level on every tuple. (The file itself regenerates
// with no diff: go generate ./env/calc && git diff --exit-code env/calc.)
func TestDefaultProgramsTableIsTheSearchs(t *testing.T) {
	items := strings.Split(DefaultLevelsSpec, ",")
	require.Len(t, defaultPrograms, len(items))
	for _, text := range items {
		e := mustExpr(t, text)
		prog, ok := defaultPrograms[e.Canonical()]
		require.True(t, ok, text)
		r := Search(e, MaxSearchLen)
		require.Equal(t, r.Program, prog, text)
		require.True(t, Computes(e, prog), text)
	}
}

// A table entry is used only after it computes the level.
func TestTableEntriesAreChecked(t *testing.T) {
	saved, wrong := defaultPrograms["a*b"], []int32{LOAD, ADD, ANS}
	defaultPrograms["a*b"] = wrong
	r, ok := recall(mustExpr(t, "b*a"), MaxSearchLen)
	defaultPrograms["a*b"] = saved
	require.False(t, ok && slices.Equal(r.Program, wrong), "a wrong entry is not used")

	r, ok = recall(mustExpr(t, "b*a"), 2)
	require.True(t, ok, "b*a is a*b's table entry")
	require.False(t, r.Found(), "the shortest has 3 tokens")
}
