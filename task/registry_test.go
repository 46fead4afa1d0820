package task

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRegistry: seed, calc and expr register themselves; a registered task opens
// by name with its spec; a nil opener, an empty name and a name taken are
// programming errors (panics, as sql.Register's).
func TestRegistry(t *testing.T) {
	require.Subset(t, Names(), []string{"calc", "expr", "seed"})
	Register("test-echo", func(spec string) (Task, error) { return Calc(spec, 0) })
	require.Contains(t, Names(), "test-echo")
	tk, err := Open("test-echo", "a*b")
	require.NoError(t, err)
	require.Len(t, tk.Levels(), 1)
	require.PanicsWithValue(t, "task: Register called twice for seed", func() { Register("seed", func(string) (Task, error) { return Seed(), nil }) })
	require.Panics(t, func() { Register("nil-opener", nil) })
	require.Panics(t, func() { Register("", func(string) (Task, error) { return Seed(), nil }) })
	_, err = Open("Seed", "")
	require.ErrorContains(t, err, `unknown task "Seed" (registered: calc, expr, seed, tape, test-echo)`, "names are exact")
}

// TestDeclarations: what the seed and calc tasks declare in place of their
// names (task.ReferenceSchedule, Titled, Tuned).
func TestDeclarations(t *testing.T) {
	_, ok := Seed().(ReferenceSchedule)
	require.True(t, ok)
	require.Equal(t, "Level 2", Seed().(Titled).LevelTitle(2))
	ct, err := OpenCalc("levels=a*b; partial_credit=0.7")
	require.NoError(t, err)
	_, ok = ct.(ReferenceSchedule)
	require.False(t, ok)
	require.Equal(t, Tuning{Spec: "levels=a*b; partial_credit=0.3", EntropyCoef: 0.5, Updates: 6000, EntropyUpdates: 6000}, ct.(Tuned).DefaultTuning())
}
