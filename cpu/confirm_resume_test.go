package cpu

import (
	"bytes"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// confirmConfig trains level 0 alone under the default stop rule: its
// evaluation at update 8 (20 episodes) is perfect, the confirmation of 1000
// episodes after it finds 9 failures and fails, and the one after update 10
// finds none and stops the run.
func confirmConfig() trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Updates, cfg.EvalEvery, cfg.EvalBatch, cfg.FinalEpisodes, cfg.Explain, cfg.Chunk = 48, 40, 2, 20, 30, 0, 16
	cfg.TrainLevels, cfg.Threads = []int{0}, 2
	return cfg
}

// savedAt runs cfg until the save after update at, and returns the
// checkpoint written there.
func savedAt(t *testing.T, cfg trainer.Config, at int) *checkpoint.File {
	var saved *checkpoint.File
	stop := make(chan struct{})
	e, err := newRun(cfg)
	require.NoError(t, err)
	_, _ = trainer.Drive(e.tr, &bytes.Buffer{}, trainer.Options{SaveEvery: at, Interrupt: stop, Save: func() error {
		if saved == nil {
			saved = roundTrip(t, e)
			close(stop)
		}
		return nil
	}})
	require.NotNil(t, saved)
	return saved
}

// TestResumeAcrossConfirmation: a run interrupted after a failed
// confirmation, or saved after the one that stopped it, resumes to the
// uninterrupted run's parameters, confirmations (its report's, all of them)
// and final evaluation.
func TestResumeAcrossConfirmation(t *testing.T) {
	cfg := confirmConfig()
	full, err := run(t, cfg, &bytes.Buffer{})
	require.NoError(t, err)
	require.Equal(t, 10, full.Updates)
	require.Len(t, full.Confirmations, 2, "the case needs a failed confirmation and a passing one")
	require.Equal(t, 8, full.Confirmations[0].Update)
	require.False(t, full.Confirmations[0].Solved)
	require.True(t, full.Confirmations[1].Solved)

	for _, at := range []int{9, 10} { // after the failed confirmation; after the passing one
		tr, err := resume(savedAt(t, cfg, at), cfg)
		require.NoError(t, err)
		require.Equalf(t, at == 10, savedState(t, tr)["solved"], "resumed after update %d", at)
		rest, err := trainer.Drive(tr.tr, &bytes.Buffer{}, trainer.Options{})
		require.NoError(t, err)
		require.Equal(t, full.ParamSHA256, rest.ParamSHA256)
		require.Equal(t, full.Final, rest.Final)
		require.Equal(t, full.Updates, rest.Updates)
		// The report is the whole run's (the checkpoint carries the
		// confirmations before it): after update 9 the resumed run makes
		// the passing one; after 10, a solved run confirms nothing more.
		require.Equal(t, full.Confirmations, rest.Confirmations)
	}
}
