//go:build cgo

package gpu

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/gpu/internal/abi"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/trainer"
)

// TestEngineFollowsABI: every launch of an update and of an evaluation packs
// its arguments as the ABI table lists them (names, kinds, order), with no
// GPU: the engine's launches are taken by onLaunch. A group estimator's
// update launches simdrl_estimate after the rollout, PPO's minibatch
// simdrl_ppo_weights.
func TestEngineFollowsABI(t *testing.T) {
	for _, task := range []string{"seed", "calc"} {
		cfg := trainer.DefaultRecipe()
		cfg.Task, cfg.Estimator, cfg.Group = task, trainer.EstimatorGRPO, 4
		e := launchOnlyEngine(t, cfg)
		launched := map[string]int{}
		errDownload := errors.New("stop before finish's download (no device)")
		e.onLaunch = func(name string, a *args) error {
			launched[name]++
			require.NoError(t, a.follows(name))
			if name == "simdrl_finish" {
				return errDownload
			}
			return nil
		}
		require.NoError(t, e.derive())
		_, err := e.rollout(rolloutSpec{n: e.B, mode: modeSample, train: true, level: -1, purpose: rng.PurposeTask, round: 1, played: []int{0, 1, 2}, cdf: []float64{1.0 / 3, 2.0 / 3, 1}})
		require.NoError(t, err)
		_, err = e.estimate(1, 0.01)
		require.NoError(t, err)
		_, err = e.rollout(rolloutSpec{n: 5, mode: modeGreedy, level: 0, givenTasks: true})
		require.NoError(t, err)
		require.NoError(t, e.gradients())
		require.NoError(t, e.add(e.grad, e.gradReplay))                // the replayed episodes' gradient (engine.replay)
		require.NoError(t, e.ppoWeights(5, cfg.PPO(), 0, 1, 40, 0.01)) // -estimator ppo's minibatch (engine.ppoMinibatch)
		require.ErrorIs(t, e.finish(1, true, 0.01), errDownload)
		require.NoError(t, e.adam())
		for _, k := range abi.Kernels {
			n := 0
			for _, name := range k.Entries {
				n += launched[name]
			}
			switch k.Module {
			case "tasks", "env": // launched by the tests only (gpu_test.go, calc_test.go), checked at their launch
			case "hoststep": // a host-stepped task's (hoststep_test.go, on a device: each launch checked by Device.launch)
			case "fields": // a fielded task's (TestFieldsFollowABI)
			default:
				require.Positivef(t, n, "the engine never launched %v", k.Entries)
			}
		}
	}
}

// launchOnlyEngine is an engine of cfg on an H100-like device that is not
// there: no buffers, and every launch must be taken by onLaunch.
func launchOnlyEngine(t *testing.T, cfg trainer.Config) *engine {
	tk, err := cfg.OpenTask()
	require.NoError(t, err)
	l, err := enginekit.NewLayout(cfg.Hidden, tk)
	require.NoError(t, err)
	d := &Device{SMs: 132, SmemOptin: 227 * 1024}
	e := &engine{d: d, cfg: cfg, task: tk, l: l, V: l.Vocab, H: l.Hidden, S: l.Levels, T: cfg.Steps, B: cfg.Batch, maxN: cfg.Batch, nsq: 1,
		NV: l.InputRows(), tokBlock: tokenBlock(l.InputRows())}
	e.fwd, err = planTiles(e.B, e.H, e.V, e.O, d.SMs, d.SmemOptin, false)
	require.NoError(t, err)
	e.bwd, err = planTiles(e.B, e.H, e.V, e.O, d.SMs, d.SmemOptin, true)
	require.NoError(t, err)
	e.slabCaps()
	return e
}
