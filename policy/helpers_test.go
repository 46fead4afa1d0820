package policy_test

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/cpu"
	_ "github.com/simdrl/simdrl/tasks/builtin"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// kind is one kind of model simdrl trains: its task, spec and context.
type kind struct {
	name, task, spec, context string
}

// kinds are a bag, a reading, an observing (calc's branching levels return
// observations) and a tape model.
var kinds = []kind{
	{"bag", "calc", "levels=a*b, a*b+c*d", ""},
	{"read", "calc", "levels=a*b, a*b+c*d", trainer.ContextRead},
	{"observe", "calc", "levels=abs(a-b), max(a,b)+c", ""},
	{"tape", "tape", "partial_credit=0.3", ""},
}

// config is a short run of k: two updates, small chunks, so that the
// evaluations span several chunks and workers.
func config(t testing.TB, k kind) trainer.Config {
	c := trainer.DefaultRecipe()
	c.Task, c.TaskSpec = k.task, k.spec
	c, err := trainer.WithTask(c)
	require.NoError(t, err)
	if k.context != "" {
		c.Context = k.context
	}
	c.Hidden, c.Updates, c.Batch, c.Chunk, c.EvalEvery, c.EvalBatch, c.FinalEpisodes, c.Explain, c.Threads = 24, 20, 24, 8, 0, 8, 61, 0, 2
	c.LR, c.EntropyCoef = 1e-2, 0.2 // a policy whose greedy programs vary already
	return c
}

// trained trains k's run and writes its checkpoint into a temporary
// directory: its path and the trainer (its engine loaded).
func trained(t testing.TB, k kind) (string, *trainer.Trainer, *cpu.Engine) {
	c := config(t, k)
	e, err := cpu.New(c)
	require.NoError(t, err)
	t.Cleanup(e.Close)
	tasks, err := c.OpenTask()
	require.NoError(t, err)
	tr, err := trainer.New(c, tasks, e)
	require.NoError(t, err)
	_, err = trainer.Drive(tr, io.Discard, trainer.Options{Quiet: true})
	require.NoError(t, err)
	f, err := tr.Checkpoint()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), k.name+".safetensors")
	require.NoError(t, checkpoint.WriteFile(path, f))
	return path, tr, e
}

// evalOnly is what `simdrl -load path -eval-only` reports: a fresh engine
// of the checkpoint's config, its weights loaded, driven with EvalOnly.
func evalOnly(t testing.TB, path string) *trainer.Report {
	f, err := checkpoint.ReadFile(path)
	require.NoError(t, err)
	c, err := trainer.CheckpointConfig(f)
	require.NoError(t, err)
	e, err := cpu.New(c)
	require.NoError(t, err)
	defer e.Close()
	tk, err := c.OpenTask()
	require.NoError(t, err)
	tr, err := trainer.New(c, tk, e)
	require.NoError(t, err)
	require.NoError(t, tr.LoadWeights(f))
	rep, err := trainer.Drive(tr, io.Discard, trainer.Options{EvalOnly: true, Quiet: true})
	require.NoError(t, err)
	return rep
}
