package trainer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/stretchr/testify/require"
)

// FuzzCheckpointConfig: whatever config a checkpoint carries (the levels of
// a crafted calc curriculum included), reading and validating it never
// panics and never does more search work than one curriculum may
// (calc.MaxCurriculumStates), so -resume and -load of any file are bounded.
func FuzzCheckpointConfig(f *testing.F) {
	calcCfg, err := WithTask(func() Config { c := DefaultRecipe(); c.Task = "calc"; return c }())
	require.NoError(f, err)
	for _, c := range []Config{DefaultRecipe(), ReferenceRecipe(), calcCfg} {
		raw, err := json.Marshal(c)
		require.NoError(f, err)
		f.Add(string(raw))
	}
	crafted := []string{"a*b, a*b+c*d", strings.Repeat("h*h,", 10), "a*b+c*d-e*f+g*h:16", "(((a)))*b", "a*b, (a*b)"}
	if !testing.Short() {
		// Levels whose searches run to the caps: seconds of CPU each
		// (under -short env/calc's TestSearchStopsAtItsCap checks a
		// capped search, without the config around it).
		crafted = append(crafted, "h*h", "a*a+h-h", "g*g+a, g*g+b, g*g+c, h*h+a, h*h+b, h*h+c, a*b")
	}
	for _, levels := range crafted {
		c := calcCfg
		c.TaskSpec = calctask.CalcSpec{Levels: levels, PartialCredit: 0.3}.String()
		raw, err := json.Marshal(c)
		require.NoError(f, err)
		f.Add(string(raw))
		// and as a checkpoint from before task specs wrote them
		f.Add(strings.Replace(string(raw), `"task_spec":`+quote(c.TaskSpec), `"levels":`+quote(levels)+`,"partial_credit":0.3`, 1))
	}
	f.Fuzz(func(t *testing.T, config string) {
		file := &checkpoint.File{Metadata: map[string]string{"format": checkpointFormat, "config": config}}
		before := calc.StatesVisited()
		require.NotPanics(t, func() { _, _ = CheckpointConfig(file) })
		require.LessOrEqual(t, calc.StatesVisited()-before, int64(calc.MaxCurriculumStates), "one config's levels searched past the curriculum's bound")
	})
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
