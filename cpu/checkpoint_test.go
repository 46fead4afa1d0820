package cpu

import (
	"bytes"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

func roundTrip(t *testing.T, tr *testRun) *checkpoint.File {
	b, err := checkpoint.Encode(snapshot(t, tr))
	require.NoError(t, err)
	f, err := checkpoint.Decode(b)
	require.NoError(t, err)
	return f
}

// TestResumeIsBitIdentical: stop a run (by interrupting it from its save
// hook), checkpoint it, resume from the file, and finish: the parameters,
// and the evaluations after the break, equal the uninterrupted run's.
func TestResumeIsBitIdentical(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Updates, cfg.EvalEvery, cfg.EvalBatch, cfg.FinalEpisodes, cfg.Explain, cfg.Chunk = 48, 12, 2, 20, 30, 0, 16
	cfg.Threads = 2
	resumesBitIdentically(t, cfg)
}

// TestGroupEstimatorResumesBitIdentically: a checkpoint keeps the
// estimator and the group size, and the run resumes bit for bit.
func TestGroupEstimatorResumesBitIdentically(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Updates, cfg.EvalEvery, cfg.EvalBatch, cfg.FinalEpisodes, cfg.Explain, cfg.Chunk = 48, 12, 2, 20, 30, 0, 16
	cfg.Threads, cfg.Estimator, cfg.Group = 2, trainer.EstimatorGRPO, 4
	resumesBitIdentically(t, cfg)
}

// resumesBitIdentically: cfg's run, interrupted at its first save (update 5)
// and resumed from the checkpoint on another thread count, ends as the
// uninterrupted run does.
func resumesBitIdentically(t *testing.T, cfg trainer.Config) {
	full, err := run(t, cfg, &bytes.Buffer{})
	require.NoError(t, err)

	var saved *checkpoint.File
	stop := make(chan struct{})
	tr0, err := newRun(cfg)
	require.NoError(t, err)
	first, err := trainer.Drive(tr0.tr, &bytes.Buffer{}, trainer.Options{SaveEvery: 5, Interrupt: stop, Save: func() error {
		if saved == nil {
			saved = roundTrip(t, tr0)
			close(stop)
		}
		return nil
	}})
	require.ErrorIs(t, err, trainer.ErrInterrupted)
	require.Equal(t, 5, first.Updates)
	require.True(t, first.Interrupted)

	got, err := trainer.CheckpointConfig(saved)
	require.NoError(t, err)
	require.Equal(t, cfg, got)
	got.Threads = 3 // another machine: threads are not part of the arithmetic
	tr, err := resume(saved, got)
	require.NoError(t, err)
	rest, err := trainer.Drive(tr.tr, &bytes.Buffer{}, trainer.Options{})
	require.NoError(t, err)
	require.Equal(t, full.ParamSHA256, rest.ParamSHA256)
	require.Equal(t, full.Final, rest.Final)
	require.Equal(t, full.Updates, rest.Updates)
	for i := range rest.Evaluations {
		a, b := rest.Evaluations[i], full.Evaluations[len(full.Evaluations)-len(rest.Evaluations)+i]
		a.UpdatesPerSecond, b.UpdatesPerSecond = 0, 0
		require.Equal(t, b, a)
	}
}

func TestCheckpointRejectsMismatches(t *testing.T) {
	cfg := shortConfig()
	tr, err := newRun(cfg)
	require.NoError(t, err)
	defer tr.Close()
	f := roundTrip(t, tr)

	other := cfg
	other.Hidden = 32
	_, err = resume(f, other)
	require.ErrorContains(t, err, "emb.weight has shape [18 96], this model needs [18 32]")

	small, err := newRun(other)
	require.NoError(t, err)
	defer small.Close()
	require.ErrorContains(t, small.LoadWeights(f), "emb.weight has shape [18 96], this model needs [18 32]")

	missing := *f
	missing.Tensors = f.Tensors[1:]
	_, err = resume(&missing, cfg)
	require.ErrorContains(t, err, "no tensor emb.weight")

	bad := *f
	bad.Metadata = map[string]string{"format": "something else"}
	_, err = trainer.CheckpointConfig(&bad)
	require.ErrorContains(t, err, "not a simdrl checkpoint")

	// LoadWeights takes the weights and nothing else.
	fresh, err := newRun(func() trainer.Config { c := cfg; c.Seed = 99; return c }())
	require.NoError(t, err)
	defer fresh.Close()
	require.NotEqual(t, hash(t, tr), hash(t, fresh))
	require.NoError(t, fresh.LoadWeights(f))
	require.Equal(t, hash(t, tr), hash(t, fresh))
	require.Zero(t, fresh.Updates())
}
