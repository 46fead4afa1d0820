package customtask

import (
	"io"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestFieldMaxLearns: the CPU engine trains the fieldmax task, whose digits
// reach the policy only through its fields and vector, to a final solve
// rate of at least 0.99.
func TestFieldMaxLearns(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Threads, cfg.Updates, cfg.Hidden = FieldMaxName, 2, 600, 64
	cfg = trainer.TaskDefaults(cfg, FieldMax{})
	cfg.StopAt = 0 // the whole schedule: its entropy decays to 0, the policy ends greedy
	e, err := cpu.NewWithTask(cfg, FieldMax{})
	require.NoError(t, err)
	defer e.Close()
	tr, err := trainer.New(cfg, FieldMax{}, e)
	require.NoError(t, err)
	rep, err := trainer.Drive(tr, io.Discard, trainer.Options{Quiet: true})
	require.NoError(t, err)
	t.Logf("solved after %d updates: %v", rep.Updates, rep.Final.SolveRate)
	require.GreaterOrEqual(t, rep.Final.SolveRate[0], 0.99)
}

// TestFieldMaxMask: fieldmax's game allows exactly the two digits it shows
// (one token when they are equal), and its task is a masked one.
func TestFieldMaxMask(t *testing.T) {
	require.True(t, task.Masks(FieldMax{}))
	legal := make([]bool, FieldMax{}.Vocab())
	for i := range legal {
		legal[i] = true
	}
	for _, c := range [][2]int64{{3, 7}, {9, 0}, {5, 5}} {
		g := FieldMax{}.NewGame().(task.LegalGame)
		g.Reset(&task.Instance{Budget: 1, Data: [task.DataWords]int64{c[0], c[1]}})
		g.Legal(legal)
		for tok, ok := range legal {
			require.Equal(t, int64(tok) == c[0] || int64(tok) == c[1], ok, "digits %v, token %d", c, tok)
		}
	}
}
