//go:build cgo

package gpu

import (
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestGPUHostBuffersReused: once the engine is built, an update with
// replayed episodes and a record, an evaluation and a greedy rollout
// allocate no host buffer: they read back into, and upload from, the host
// plan's (hostPlan).
func TestGPUHostBuffersReused(t *testing.T) {
	d := openGPU(t)
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Hidden, cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain = 8, 16, 0, 0, 0
	e := testEngine(t, d, cfg, nil)
	tk := e.task
	replay := make([]task.Episode, 11) // two parts of at most 8
	for r := range replay {
		replay[r] = task.Episode{Instance: tk.Draw(e.key, 1, uint32(r), rng.PurposeTask, r%3, task.Training), Program: make([]int32, cfg.Steps)}
		for s := range replay[r].Program {
			replay[r].Program[s] = tk.Answer()
		}
	}
	p := trainer.Plan{Update: 1, Level: 1, Entropy: cfg.EntropyCoef, Replay: replay, ReplayCoef: 0.5, Record: make([]task.Episode, cfg.Batch)}
	var err error
	run := func(name string, f func() error) {
		var allocs float64
		require.NoError(t, d.do(func() error {
			allocs = testing.AllocsPerRun(3, func() {
				if err == nil {
					err = f()
				}
			})
			return err
		}))
		require.Zerof(t, allocs, "%s allocates", name)
	}
	run("update", func() error { _, err := e.update(p); return err })
	run("evaluate", func() error { _, err := e.evaluate(1, 5, 1, task.HeldOut); return err })
	run("greedy rollout", func() error {
		_, err := e.greedyRollout(rolloutSpec{n: 5, mode: modeGreedy, level: 0})
		return err
	})
}
