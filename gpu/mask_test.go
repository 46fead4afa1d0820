//go:build cgo

package gpu

import (
	"fmt"
	"strings"
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

// The CUDA engine refuses a task with a legal-action mask before it opens
// the device, in one line that names the mask and the way out.
func TestGPURefusesAMaskedTask(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Steps, cfg.TrainLevels = "oddonly", 2, []int{0}
	_, err := NewOpened(cfg, oddOnly{})
	require.Error(t, err)
	require.Contains(t, err.Error(), "legal-action mask")
	require.Contains(t, err.Error(), "train it on the CPU")
	require.NotContains(t, err.Error(), "\n")
	require.False(t, strings.Contains(err.Error(), "scor"), "refused for its mask, not its scoring: %v", err)
}
