//go:build cgo

package gpu

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// oddOnly is a Go task whose games allow only odd tokens (a legal-action
// mask, task.LegalGame).
type oddOnly struct{}

func (oddOnly) Name() string               { return "oddonly" }
func (oddOnly) Vocab() int                 { return 4 }
func (oddOnly) ContextEnd() int32          { return 2 }
func (oddOnly) NotActions() []int32        { return []int32{2} }
func (oddOnly) Answer() int32              { return task.NoAnswer }
func (oddOnly) HoldsOut() bool             { return false }
func (oddOnly) TokenName(tok int32) string { return fmt.Sprint(tok) }
func (oddOnly) Levels() []task.Level {
	return []task.Level{{Name: "odd", Budget: 2, Shortest: 2}}
}
func (oddOnly) Draw(_ rng.Key, _, _ uint32, _ rng.Purpose, lv int, _ task.Split) task.Instance {
	return task.Instance{Level: int32(lv), Budget: 2}
}
func (oddOnly) NewGame() task.Game { return &oddGame{} }

type oddGame struct{}

func (*oddGame) Reset(*task.Instance) int32        { return task.NoObservation }
func (*oddGame) Step(int32) (int32, float64, bool) { return task.NoObservation, 0, false }
func (*oddGame) Correct() bool                     { return false }
func (*oddGame) Legal(legal []bool) {
	for a := range legal {
		legal[a] = a%2 == 1
	}
}

// maskedWalk is the walk with a legal-action mask (its games are
// task.LegalGames): − only above 0, + only below 3, = always; the targets'
// tokens and the context end never.
type maskedWalk struct{ walkTask }

func (maskedWalk) Name() string         { return "maskedwalk" }
func (m maskedWalk) NewGame() task.Game { return &maskedWalkGame{walkGame{panicAt: m.panicAt}} }

type maskedWalkGame struct{ walkGame }

func (g *maskedWalkGame) Legal(legal []bool) {
	for a := range legal {
		legal[a] = a == walkSay || a == walkUp && g.pos < 3 || a == walkDown && g.pos > 0
	}
}

// TestGPUMaskedGoGameMatchesCPU: a Go game with a legal-action mask trains
// on the GPU, its mask applied on the host-stepped path as on the CPU (the
// illegal logits replaced before sampling, the greedy choice and the
// entropy): six updates match the CPU's (the first update's rewards
// exactly), no recorded program plays an illegal token, the tokens never
// legal get exactly no gradient, and the greedy evaluations are the CPU's.
func TestGPUMaskedGoGameMatchesCPU(t *testing.T) {
	d := openGPU(t)
	cfg := walkConfig("")
	cfg.Task = "maskedwalk"
	host, g := walkRuns(t, cfg, maskedWalk{})
	require.True(t, g.e.masks)
	updatesMatch(t, "masked walk", host, g, 1, 6, true)
	want, err := host.EvaluateAll(100, 3, task.HeldOut)
	require.NoError(t, err)
	got, err := g.EvaluateAll(100, 3, task.HeldOut)
	require.NoError(t, err)
	for lv := range want {
		require.InDelta(t, want[lv].SolveRate, got[lv].SolveRate, 0.02, "level %d solve rate", lv)
		require.InDelta(t, want[lv].MeanReward, got[lv].MeanReward, 0.03, "level %d reward", lv)
	}

	e := g.e
	rec := make([]task.Episode, cfg.Batch)
	for b := range rec {
		rec[b].Program = make([]int32, cfg.Steps)
	}
	grad := make([]float32, e.l.Size)
	require.NoError(t, d.do(func() error {
		if _, err := e.update(trainer.Plan{Update: 7, Level: -1, Played: []int{0, 1}, CDF: []float64{0.5, 1}, Entropy: cfg.EntropyCoef, Record: rec}); err != nil {
			return err
		}
		return download(grad, e.grad)
	}))
	for b, ep := range rec {
		pos := 0
		for s, a := range ep.Program[:ep.Instance.Budget] { // (past its end every token is legal)
			ok := a == walkSay || a == walkUp && pos < 3 || a == walkDown && pos > 0
			require.Truef(t, ok, "episode %d plays illegal token %d at step %d (position %d): %v", b, a, s, pos, ep.Program)
			if a == walkSay {
				break
			}
			pos += map[int32]int{walkUp: 1, walkDown: -1}[a]
		}
	}
	H := e.H
	for _, tok := range []int{3, 4, 5, walkEnd} {
		require.Zerof(t, grad[e.l.PiB.Offset+tok], "pi.bias of never-legal token %d", tok)
		for j := 0; j < H; j++ {
			require.Zerof(t, grad[e.l.PiW.Offset+tok*H+j], "pi.weight of never-legal token %d", tok)
		}
	}
	nonzero := false
	for j := 0; j < H; j++ {
		nonzero = nonzero || grad[e.l.PiW.Offset+walkUp*H+j] != 0
	}
	require.True(t, nonzero, "a legal token's head gets a gradient")
}

// TestGPUUpdateReturnsABrokenMask: a mask that leaves no token legal breaks
// the task's contract: the update's error, not a crash.
func TestGPUUpdateReturnsABrokenMask(t *testing.T) {
	openGPU(t).Close()
	cfg := walkConfig("")
	cfg.Task = "oddonly"
	cfg.Steps, cfg.TrainLevels = 2, []int{0}
	e, err := NewWithTask(cfg, noneLegal{})
	require.NoError(t, err)
	defer e.Close()
	_, err = e.Update(trainer.Plan{Update: 1, Level: 0, Entropy: cfg.EntropyCoef})
	require.ErrorContains(t, err, "leaves no token legal")
	require.NotContains(t, err.Error(), "\n")
}

// noneLegal is oddOnly whose games allow no token.
type noneLegal struct{ oddOnly }

func (noneLegal) NewGame() task.Game { return &noneGame{} }

type noneGame struct{ oddGame }

func (*noneGame) Legal(legal []bool) { clear(legal) }
