//go:build cgo

package gpu

import (
	"bytes"
	"sync"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// closeAt gives g a fresh interrupt that its engine closes at the first
// check named at; the returned func says whether that check was reached.
func closeAt(g *gpuRun, at string) func() bool {
	stop := make(chan struct{})
	var once sync.Once
	reached := false
	g.SetInterrupt(stop)
	g.e.onCheck = func(name string) {
		if name == at {
			once.Do(func() { reached = true; close(stop) })
		}
	}
	return func() bool { g.e.onCheck = nil; return reached }
}

func encodedGPU(t *testing.T, g *gpuRun) []byte {
	f, err := g.Checkpoint()
	require.NoError(t, err)
	b, err := checkpoint.Encode(f)
	require.NoError(t, err)
	return b
}

// TestGPUInterruptedCallsChangeNothing: an update interrupted at each of its
// checks (the last one after its kernels ran) returns ErrInterrupted and
// leaves the parameters, Adam's state and the counters as they were; the
// next update gives the parameters of an engine never interrupted. An
// evaluation between levels or before its launch and the greedy programs
// stop too. Both scorers: the seed draws in the kernel, calc on the host.
func TestGPUInterruptedCallsChangeNothing(t *testing.T) {
	openGPU(t).Close()
	seed := trainer.DefaultRecipe()
	seed.Batch, seed.Updates, seed.EvalEvery, seed.FinalEpisodes, seed.Explain, seed.Threads = 64, 4, 0, 64, 0, 2
	calc := calcConfig(t, "a*b, a*b+c*d", -1)
	calc.Batch, calc.FinalEpisodes = 64, 64
	for _, c := range []struct {
		cfg    trainer.Config
		checks []string
	}{
		{seed, []string{"update", "rollout", "backward", "adam"}},
		{calc, []string{"update", "draw", "rollout", "backward", "adam"}},
	} {
		ref, err := newGPURun(c.cfg)
		require.NoError(t, err)
		for range 2 {
			_, err = ref.Update()
			require.NoError(t, err)
		}
		want, err := ref.ParamSHA256()
		require.NoError(t, err)
		wantCk := encodedGPU(t, ref)
		ref.Close()

		g, err := newGPURun(c.cfg)
		require.NoError(t, err)
		_, err = g.Update()
		require.NoError(t, err)
		sum, err := g.ParamSHA256()
		require.NoError(t, err)
		ck := encodedGPU(t, g)
		for _, at := range c.checks {
			reached := closeAt(g, at)
			_, err := g.Update()
			require.ErrorIs(t, err, trainer.ErrInterrupted, "%s: at %s", c.cfg.Task, at)
			require.True(t, reached(), "%s: no check %s", c.cfg.Task, at)
			require.Equal(t, 1, g.Updates())
			got, err := g.ParamSHA256()
			require.NoError(t, err)
			require.Equal(t, sum, got, "%s: interrupted at %s", c.cfg.Task, at)
			require.Equal(t, ck, encodedGPU(t, g), "%s: interrupted at %s", c.cfg.Task, at)
		}
		evalChecks := []string{"evaluate", "rollout"}
		if c.cfg.Task == "calc" {
			evalChecks = append(evalChecks, "draw")
		}
		for _, at := range evalChecks {
			reached := closeAt(g, at)
			_, err = g.EvaluateAll(c.cfg.FinalEpisodes, enginekit.FinalRound, task.HeldOut)
			require.ErrorIs(t, err, trainer.ErrInterrupted, "%s: evaluation at %s", c.cfg.Task, at)
			require.True(t, reached())
		}
		ins := []task.Instance{enginekit.ExplainInstance(g.Task(), rng.NewKey(c.cfg.Seed), 0, 0)}
		reached := closeAt(g, "launch")
		_, err = g.GreedyPrograms(ins)
		require.ErrorIs(t, err, trainer.ErrInterrupted)
		require.True(t, reached())

		g.SetInterrupt(nil)
		_, err = g.Update()
		require.NoError(t, err)
		got, err := g.ParamSHA256()
		require.NoError(t, err)
		require.Equal(t, want, got, "%s: the update after interrupted ones", c.cfg.Task)
		require.Equal(t, wantCk, encodedGPU(t, g))
		g.Close()
	}
}

// TestGPUDriveInterrupted: Drive on the GPU interrupted inside update 3
// (after its kernels ran) saves update 2, which resumes to the parameters of
// a run never interrupted; interrupted in the final evaluation, it returns
// ErrInterrupted with the report as far as it got.
func TestGPUDriveInterrupted(t *testing.T) {
	openGPU(t).Close()
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Updates, cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Threads = 64, 4, 0, 64, 0, 2
	full, err := newGPURun(cfg)
	require.NoError(t, err)
	fullRep, err := trainer.Drive(full.tr, &bytes.Buffer{}, trainer.Options{})
	require.NoError(t, err)

	drive := func(at string, updates int) (*trainer.Report, []*checkpoint.File, error) {
		g, err := newGPURun(cfg)
		require.NoError(t, err)
		stop := make(chan struct{})
		var once sync.Once
		g.e.onCheck = func(name string) {
			if name == at && g.Updates() == updates {
				once.Do(func() { close(stop) })
			}
		}
		var saved []*checkpoint.File
		rep, err := trainer.Drive(g.tr, &bytes.Buffer{}, trainer.Options{Interrupt: stop, Save: func() error {
			f, err := g.Checkpoint()
			saved = append(saved, f)
			return err
		}})
		return rep, saved, err
	}

	rep, saved, err := drive("adam", 2)
	require.ErrorIs(t, err, trainer.ErrInterrupted)
	require.True(t, rep.Interrupted)
	require.Equal(t, 2, rep.Updates)
	require.Len(t, saved, 1)
	g, err := newGPURun(cfg)
	require.NoError(t, err)
	require.NoError(t, g.Restore(saved[0]))
	rest, err := trainer.Drive(g.tr, &bytes.Buffer{}, trainer.Options{})
	require.NoError(t, err)
	require.Equal(t, fullRep.ParamSHA256, rest.ParamSHA256)
	require.Equal(t, fullRep.Final, rest.Final)

	rep, saved, err = drive("evaluate", 4)
	require.ErrorIs(t, err, trainer.ErrInterrupted)
	require.True(t, rep.Interrupted)
	require.Equal(t, 4, rep.Updates)
	require.Len(t, saved, 1)
	require.Nil(t, rep.FinalByLevel)
	require.Equal(t, fullRep.ParamSHA256, rep.ParamSHA256)
}
