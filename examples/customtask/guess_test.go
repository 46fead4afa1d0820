package customtask

import (
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// guessConfig is the default recipe on the guess task (trainer.WithTask:
// a rollout of its budget of 4 guesses).
func guessConfig(t *testing.T, threads int) trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Threads = GuessName, threads
	cfg, err := trainer.WithTask(cfg)
	require.NoError(t, err)
	require.Equal(t, 4, cfg.Steps)
	return cfg
}

// TestGuessUpdateAllocatesNothing: the Env derived from the guess task's
// games (one per row, made once) keeps the update allocation-free.
func TestGuessUpdateAllocatesNothing(t *testing.T) {
	tr, e := newRun(t, guessConfig(t, 2))
	defer e.Close()
	_, err := tr.Update()
	require.NoError(t, err)
	require.Zero(t, testing.AllocsPerRun(3, func() { _, _ = tr.Update() }))
}

// TestGuessThreadsAgree: the same seed trains the guess task to the same
// parameters on 1 and 3 threads.
func TestGuessThreadsAgree(t *testing.T) {
	var params [][]float32
	for _, threads := range []int{1, 3} {
		tr, e := newRun(t, guessConfig(t, threads))
		for range 10 {
			_, err := tr.Update()
			require.NoError(t, err)
		}
		p, err := e.Params()
		require.NoError(t, err)
		params = append(params, p)
		e.Close()
	}
	require.Equal(t, params[0], params[1])
}
