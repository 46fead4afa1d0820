//go:build cgo

package gpu

import (
	"runtime"
	"testing"

	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestGPUHostDrawAllocatesNothing: once the engine is built, an
// evaluation's and an update's draws on the host (drawEvaluation;
// trainingDraw and drawWith, for calc, whose instances the host draws:
// each group's level by the curriculum's weights) allocate nothing, for
// draws in one part and in several parts at once; and every episode's
// record is its instance, drawn here one by one.
func TestGPUHostDrawAllocatesNothing(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(4, runtime.GOMAXPROCS(0)))) // several parts, on any machine
	d := openGPU(t)
	for _, B := range []int{8, 3 * 2048} { // drawWith's perPart: 2048
		cfg := calcConfig(t, "a+b, a*b, a*b+c*d", -1)
		cfg.Batch, cfg.Hidden, cfg.Estimator, cfg.Group = B, 16, trainer.EstimatorRLOO, 2
		e := testEngine(t, d, cfg, nil)
		p := trainer.Plan{Update: 3, Level: -1, Played: []int{0, 2}, CDF: []float64{0.5, 1}, Entropy: cfg.EntropyCoef}
		allocs := func(draw func() error) float64 {
			var n float64
			require.NoError(t, d.do(func() error {
				var err error
				n = testing.AllocsPerRun(3, func() {
					if derr := draw(); err == nil {
						err = derr
					}
				})
				return err
			}))
			return n
		}
		// an evaluation's part of B/2 episodes, from its 5th, of level 1 on round 4
		require.Zerof(t, allocs(func() error { return e.drawEvaluation(5, B/2, 1, 4, task.HeldOut) }), "B=%d: the evaluation's draw allocates", B)
		want := make([]int32, record.Words)
		for b := 0; b < B/2; b++ {
			in := e.task.Draw(e.key, 4, uint32(5+b), enginekit.EvalPurpose(1), 1, task.HeldOut)
			require.NoError(t, e.pack(want, &in))
			require.Equalf(t, want, e.hostRecords(B)[record.Words*b:record.Words*(b+1)], "B=%d: evaluation episode %d's record", B, b)
		}
		require.Zerof(t, allocs(func() error {
			draw, err := e.trainingDraw(p)
			if err == nil {
				err = e.drawWith(B, draw)
			}
			return err
		}), "B=%d: the update's draw allocates", B)
		for b := 0; b < B; b++ {
			group := uint32(b / 2)
			in := e.task.Draw(e.key, 3, group, rng.PurposeTask, enginekit.DrawLevel(p.Played, p.CDF, e.key, 3, group), task.Training)
			require.NoError(t, e.pack(want, &in))
			require.Equalf(t, want, e.hostRecords(B)[record.Words*b:record.Words*(b+1)], "B=%d: episode %d's record", B, b)
		}
	}
}

// A draw of no episodes has no part to run: it must not count its parts
// below zero (a negative WaitGroup panics).
func TestHostDrawOfNoEpisodes(t *testing.T) {
	d := &hostDrawer{}
	require.NoError(t, d.run(0, nil, nil))
}
