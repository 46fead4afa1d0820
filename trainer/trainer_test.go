package trainer

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
)

// encoded is tr's checkpoint as bytes: a deep copy, whatever the engine's
// buffers do next.
func encoded(t *testing.T, tr *Trainer) []byte {
	f, err := tr.Checkpoint()
	require.NoError(t, err)
	b, err := checkpoint.Encode(f)
	require.NoError(t, err)
	return b
}

// TestUpdatePlans: every update's plan carries its number, the schedule's
// entropy coefficient and, for a mixed update, the played levels and their
// cumulative weights; a failed update is not counted.
func TestUpdatePlans(t *testing.T) {
	cfg := driveConfig()
	tr, e := newFakeRun(cfg, func(call, int) float64 { return 0.5 })
	for range 3 {
		_, err := tr.Update()
		require.NoError(t, err)
	}
	require.Equal(t, 3, tr.Updates())
	require.Equal(t, []int{1, 2, 3}, e.updates)
	require.Equal(t, []float64{cfg.EntropyAt(1), cfg.EntropyAt(2), cfg.EntropyAt(3)}, e.entropies)
	require.Equal(t, []int{-1, -1, -1}, e.planLevels, "the default recipe is mixed")
	require.Equal(t, []int{0, 1, 2}, e.played[0])
}

// TestNewRefusesAnotherModel: an engine whose parameters are not the
// config's model is refused, before anything runs.
func TestNewRefusesAnotherModel(t *testing.T) {
	cfg := driveConfig()
	tk, err := cfg.OpenTask()
	require.NoError(t, err)
	_, err = New(cfg, tk, &fakeEngine{params: make([]float32, 3)})
	require.ErrorContains(t, err, "the engine holds 3 parameters")
	cfg.Batch = 0
	_, err = New(cfg, tk, &fakeEngine{})
	require.ErrorContains(t, err, "batch must be")
}

// TestRestoreContinues: a checkpoint after 10 updates and two evaluations
// restores into a fresh trainer as the same state (the file it writes is
// byte for byte the one it read); a damaged one changes nothing.
func TestRestoreContinues(t *testing.T) {
	cfg := driveConfig()
	cfg.Updates, cfg.FinalEpisodes = 10, 0
	tr, e := newFakeRun(cfg, func(call, int) float64 { return 0.5 })
	for i := range e.params {
		e.params[i], e.m[i], e.v[i] = float32(i)/8, -float32(i)/16, float32(i)/32
	}
	_, err := Drive(tr, &bytes.Buffer{}, Options{Quiet: true})
	require.NoError(t, err)
	want := encoded(t, tr)
	f, err := checkpoint.Decode(want)
	require.NoError(t, err)

	fresh, fe := newFakeRun(cfg, func(call, int) float64 { return 0.5 })
	before := encoded(t, fresh)
	bad, err := checkpoint.Decode(want)
	require.NoError(t, err)
	bad.Metadata["update"] = "7"
	require.ErrorContains(t, fresh.Restore(bad), "disagrees")
	require.Equal(t, before, encoded(t, fresh), "a refused checkpoint changes nothing")
	require.Zero(t, fresh.Updates())

	require.NoError(t, fresh.Restore(f))
	require.Equal(t, 10, fresh.Updates())
	require.Equal(t, 10, fe.adamStep)
	require.Equal(t, e.params, fe.params)
	require.Equal(t, want, encoded(t, fresh))
}

// TestLoadWeightsTakesParametersOnly: -load replaces the parameters and
// leaves the counter, the moments and the curriculum as they were.
func TestLoadWeightsTakesParametersOnly(t *testing.T) {
	cfg := driveConfig()
	src, se := newFakeRun(cfg, func(call, int) float64 { return 0.5 })
	for i := range se.params {
		se.params[i], se.v[i] = float32(i)/8, 1
	}
	_, err := src.Update()
	require.NoError(t, err)
	f, err := src.Checkpoint()
	require.NoError(t, err)

	dst, de := newFakeRun(cfg, func(call, int) float64 { return 0.5 })
	require.NoError(t, dst.LoadWeights(f))
	require.Equal(t, se.params, de.params)
	require.Zero(t, dst.Updates())
	require.Zero(t, de.adamStep)
	require.Equal(t, make([]float32, len(de.v)), de.v)
}

// TestDriveEvalOnly: Options.EvalOnly trains nothing and reports the model
// as it is: its hash, its updates and the final evaluation.
func TestDriveEvalOnly(t *testing.T) {
	cfg := driveConfig()
	tr, e := newFakeRun(cfg, func(call, int) float64 { return 0.5 })
	var out bytes.Buffer
	rep, err := Drive(tr, &out, Options{EvalOnly: true, Quiet: true})
	require.NoError(t, err)
	require.Empty(t, e.updates)
	require.Zero(t, rep.Updates)
	require.Equal(t, enginekit.HashParams(e.params), rep.ParamSHA256)
	require.Equal(t, cfg.FinalEpisodes, rep.Final.Episodes)
	require.Equal(t, []call{{cfg.FinalEpisodes, enginekit.FinalRound, e.calls[0].split}}, e.calls[:1])
	require.Contains(t, out.String(), "Final greedy solve rates")
	require.NotContains(t, out.String(), "Training…")
}

// TestDriveEvalOnlyReportsItsWallTime: an -eval-only report said
// wall_seconds 0 however long its evaluations took. Its wall time covers
// every evaluation it ran (each takes a measurable time here: it waits for
// the monotonic clock to move) and no more than the call to Drive; it
// trained nothing, so train_seconds stays 0.
func TestDriveEvalOnlyReportsItsWallTime(t *testing.T) {
	cfg := driveConfig()
	tr, e := newFakeRun(cfg, func(call, int) float64 { return 0.5 })
	var evaluating time.Duration
	e.evalErr = func(call) error {
		t0 := time.Now()
		for time.Since(t0) == 0 {
		}
		evaluating += time.Since(t0)
		return nil
	}
	t0 := time.Now()
	rep, err := Drive(tr, &bytes.Buffer{}, Options{EvalOnly: true, Quiet: true})
	whole := time.Since(t0)
	require.NoError(t, err)
	require.NotEmpty(t, e.calls)
	require.Positive(t, evaluating)
	require.GreaterOrEqual(t, rep.WallSeconds, evaluating.Seconds())
	require.LessOrEqual(t, rep.WallSeconds, whole.Seconds())
	require.Zero(t, rep.TrainSeconds)
	require.Zero(t, rep.UpdatesPerSecond)
}
