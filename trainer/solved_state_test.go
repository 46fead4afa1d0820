package trainer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/stretchr/testify/require"
)

// solvedFixture builds a checkpoint of a tiny model whose curriculum is in
// the given state.
func solvedFixture(t *testing.T, streak int, solved bool) (*checkpoint.File, Config) {
	cfg := DefaultRecipe()
	cfg.Hidden = 4
	tk, err := cfg.OpenTask()
	require.NoError(t, err)
	l, err := enginekit.NewLayout(cfg.Hidden, tk)
	require.NoError(t, err)
	c := newCurriculum(cfg, len(tk.Levels()))
	c.streak, c.solved = streak, solved
	p := make([]float32, l.Size)
	return buildCheckpoint(cfg, l, p, p, p, 40, 40, c), cfg
}

// restoreState restores f into a fresh curriculum of cfg.
func restoreState(t *testing.T, f *checkpoint.File, cfg Config) (*curriculum, error) {
	tk, err := cfg.OpenTask()
	require.NoError(t, err)
	l, err := enginekit.NewLayout(cfg.Hidden, tk)
	require.NoError(t, err)
	p := make([]float32, l.Size)
	c := newCurriculum(cfg, len(tk.Levels()))
	_, _, err = restoreCheckpoint(f, l, p, make([]float32, l.Size), make([]float32, l.Size), c)
	return c, err
}

// TestSolvedRoundTrips: a run that a confirmation stopped stays stopped on
// resume, and one that was only nominated does not.
func TestSolvedRoundTrips(t *testing.T) {
	for _, solved := range []bool{false, true} {
		f, cfg := solvedFixture(t, 1, solved)
		c, err := restoreState(t, f, cfg)
		require.NoError(t, err)
		require.Equal(t, solved, c.isSolved())
		require.Equal(t, 1, c.streak)
	}
}

// TestLegacySolvedStreak: a state from before confirmations (no "solved")
// keeps the old rule's verdict: two evaluations in a row at stop_at had
// ended the run; one had not.
func TestLegacySolvedStreak(t *testing.T) {
	for streak, want := range map[int]bool{0: false, 1: false, 2: true, 3: true} {
		f, cfg := solvedFixture(t, streak, false)
		var st map[string]any
		require.NoError(t, json.Unmarshal([]byte(f.Metadata["state"]), &st))
		delete(st, "solved")
		b, _ := json.Marshal(st)
		f.Metadata["state"] = string(b)
		c, err := restoreState(t, f, cfg)
		require.NoError(t, err)
		require.Equalf(t, want, c.isSolved(), "solved_streak %d", streak)
	}
	// The corpus's old valid checkpoint (streak 0) loads too.
	f, err := checkpoint.ReadFile("../testdata/checkpoints-legacy/before-entropy-updates-and-solved.safetensors")
	require.NoError(t, err)
	require.False(t, strings.Contains(f.Metadata["state"], `"solved"`))
	cfg, err := CheckpointConfig(f)
	require.NoError(t, err)
	c, err := restoreState(t, f, cfg)
	require.NoError(t, err)
	require.False(t, c.isSolved())
}

// TestRewardNote: the final line says what takes mean rewards above 1 on
// each task: the seed's shaped bonus, calc's partial credit, or nothing.
func TestRewardNote(t *testing.T) {
	open := func(name string, pc float64) task.Task {
		tk, err := task.Open(name, calctask.CalcSpec{PartialCredit: pc}.String())
		require.NoError(t, err)
		return tk
	}
	require.Contains(t, rewardNote(open("seed", 0)), "shaped bonus")
	require.Contains(t, rewardNote(open("calc", 0.3)), "partial credit")
	require.NotContains(t, rewardNote(open("calc", 0.3)), "shaped")
	require.Empty(t, rewardNote(open("calc", 0)))

	// Any other task says it itself: the tape's partial credit is for the
	// operators applied, and a task that declares nothing earns only for
	// correct answers (a user's task gets no note about the seed's bonus).
	tape, err := task.Open("tape", "partial_credit=0.3")
	require.NoError(t, err)
	require.Contains(t, rewardNote(tape), "partial credit")
	require.NotContains(t, rewardNote(tape), "shaped")
	tape, err = task.Open("tape", "")
	require.NoError(t, err)
	require.Empty(t, rewardNote(tape))
	require.Empty(t, rewardNote(tasktest.ScoredOnly{Task: open("seed", 0)}), "a task that declares no note")
}

// TestConfirmationsRoundTrip: the count of confirmations made survives a
// checkpoint, so that a resumed run tests its next confirmation at its own
// share of α (stoprule.go); a state from before the count reads as 0, and
// a negative count is refused.
func TestConfirmationsRoundTrip(t *testing.T) {
	f, cfg := solvedFixture(t, 1, false)
	var st map[string]any
	require.NoError(t, json.Unmarshal([]byte(f.Metadata["state"]), &st))
	for _, c := range []struct {
		value any // nil: the key is absent
		want  int
		err   string
	}{{float64(7), 7, ""}, {nil, 0, ""}, {float64(-1), 0, "confirmations -1 is negative"}} {
		delete(st, "confirmations")
		if c.value != nil {
			st["confirmations"] = c.value
		}
		b, _ := json.Marshal(st)
		f.Metadata["state"] = string(b)
		cur, err := restoreState(t, f, cfg)
		if c.err != "" {
			require.ErrorContains(t, err, c.err)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, c.want, cur.confirmations)
		require.Equal(t, confirmTestAt(c.want+1, cfg.StopAt), cur.nextConfirmTest())
	}
	// And buildCheckpoint writes it.
	tk, err := cfg.OpenTask()
	require.NoError(t, err)
	l, err := enginekit.NewLayout(cfg.Hidden, tk)
	require.NoError(t, err)
	c := newCurriculum(cfg, len(tk.Levels()))
	c.confirmations = 3
	p := make([]float32, l.Size)
	require.Contains(t, buildCheckpoint(cfg, l, p, p, p, 40, 40, c).Metadata["state"], `"confirmations":3`)
}
