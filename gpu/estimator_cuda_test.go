//go:build cgo

package gpu

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// groupTaskConfigs are a task whose instances the kernel draws (the seed
// task) and one the host draws (calc, every level mixed), cut to a test's
// size: a batch of 48 holds whole groups of 2, 3 and 4.
func groupTaskConfigs(t testing.TB) map[string]trainer.Config {
	seed := trainer.DefaultRecipe()
	seed.EvalEvery, seed.FinalEpisodes, seed.Explain, seed.Threads = 0, 0, 0, 2
	calc := calcConfig(t, "a+b, a*b, a*b+c*d", -1)
	calc.Curriculum = "mixed"
	out := map[string]trainer.Config{"seed": seed, "calc": calc}
	for name, c := range out {
		c.Batch, c.Hidden = 48, 32
		out[name] = c
	}
	return out
}

// TestGPUGroupSharesInstance: with -group K the GPU's K consecutive
// episodes play one instance, the CPU's (drawn once, by the group's
// index: episode/K), on a task the kernel draws and on one the host draws;
// groups differ.
func TestGPUGroupSharesInstance(t *testing.T) {
	openGPU(t).Close()
	const K = 4
	for name, cfg := range groupTaskConfigs(t) {
		cfg.Estimator, cfg.Group = trainer.EstimatorRLOO, K
		records := map[string][]task.Episode{}
		for device, open := range map[string]func() (trainer.Engine, error){
			"cpu": func() (trainer.Engine, error) { return cpu.New(cfg) },
			"gpu": func() (trainer.Engine, error) { return NewEngine(cfg) },
		} {
			e, err := open()
			require.NoError(t, err, "%s on %s", name, device)
			rec := make([]task.Episode, cfg.Batch)
			for b := range rec {
				rec[b].Program = make([]int32, cfg.Steps)
			}
			_, err = e.Update(trainer.Plan{Update: 2, Level: -1, Played: []int{0, 1, 2}, CDF: []float64{0.3, 0.6, 1}, Entropy: cfg.EntropyCoef, Record: rec})
			e.Close()
			require.NoError(t, err, "%s on %s", name, device)
			records[device] = rec
		}
		distinct := map[string]bool{}
		for b, got := range records["gpu"] {
			require.Equal(t, records["cpu"][b].Instance, got.Instance, "%s: episode %d plays the CPU's instance", name, b)
			require.Equal(t, records["gpu"][b-b%K].Instance, got.Instance, "%s: episode %d plays its group's instance", name, b)
			distinct[fmt.Sprint(got.Instance)] = true
		}
		require.Greater(t, len(distinct), cfg.Batch/K/2, "%s: groups draw their own instances", name)
	}
}

// TestGPUEstimatorsMatchCPU: a few updates of each group estimator, in
// groups of 2, 3 and 4, with and without the mask after the answer, on the
// seed task and on calc: the GPU's loss, reward and gradient norm are the
// CPU's (updatesMatch's tolerances, the first update's rewards exactly).
func TestGPUEstimatorsMatchCPU(t *testing.T) {
	openGPU(t).Close()
	for name, base := range groupTaskConfigs(t) {
		for i, est := range trainer.GroupEstimators {
			cfg := base
			cfg.Estimator, cfg.Group, cfg.MaskAfterAnswer = est, 2+i, i%2 == 0
			label := fmt.Sprintf("%s %s group %d mask %v", name, est, cfg.Group, cfg.MaskAfterAnswer)
			host, err := newHostRun(cfg)
			require.NoError(t, err, label)
			g, err := newGPURun(cfg)
			require.NoError(t, err, label)
			updatesMatch(t, label, host, g, 1, 3, true)
			host.Close()
			g.Close()
		}
	}
}
