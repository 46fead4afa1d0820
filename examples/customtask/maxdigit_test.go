package customtask

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// config is the default recipe on this task (trainer.WithTask: a rollout of
// its budget, every level), small enough to learn in seconds (3000 updates of 192 episodes).
func config(t *testing.T) trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Threads, cfg.Hidden = Name, 2, 64
	cfg, err := trainer.WithTask(cfg)
	require.NoError(t, err)
	// Not the untuned recipe's schedule: 3000 updates, the entropy bonus
	// decaying over all of them (the stop rule off: the policy ends greedy).
	cfg.Updates, cfg.EntropyUpdates, cfg.StopAt = 3000, 0, 0
	require.Equal(t, 2, cfg.Steps)
	return cfg
}

// newRun builds the CPU engine of cfg (its task opened by name) and the
// trainer that drives it; the test closes the engine.
func newRun(t *testing.T, cfg trainer.Config) (*trainer.Trainer, *cpu.Engine) {
	e, err := cpu.New(cfg)
	require.NoError(t, err)
	tr, err := trainer.New(cfg, e.Task(), e)
	require.NoError(t, err)
	return tr, e
}

// TestLearns: the CPU engine, which knows nothing of this task but its
// registered name, trains it to a final solve rate of at least 0.99.
func TestLearns(t *testing.T) {
	tr, _ := newRun(t, config(t))
	rep, err := trainer.Drive(tr, io.Discard, trainer.Options{Quiet: true})
	require.NoError(t, err)
	t.Logf("solved after %d updates: %v", rep.Updates, rep.Final.SolveRate)
	require.GreaterOrEqual(t, rep.Final.SolveRate[0], 0.99)
}

// TestResumes: a checkpoint of this task resumes through the registry (its
// config names the task) bit-identically with a run that never stopped.
func TestResumes(t *testing.T) {
	cfg := config(t)
	cfg.Updates = 30
	run := func(tr *trainer.Trainer, n int) {
		for range n {
			_, err := tr.Update()
			require.NoError(t, err)
		}
	}
	straight, straightEngine := newRun(t, cfg)
	defer straightEngine.Close()
	run(straight, 30)

	first, firstEngine := newRun(t, cfg)
	run(first, 12)
	ck, err := first.Checkpoint()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "maxdigit.safetensors")
	require.NoError(t, checkpoint.WriteFile(path, ck))
	firstEngine.Close()

	f, err := checkpoint.ReadFile(path)
	require.NoError(t, err)
	saved, err := trainer.CheckpointConfig(f)
	require.NoError(t, err)
	require.Equal(t, Name, saved.Task)
	resumed, resumedEngine := newRun(t, saved)
	defer resumedEngine.Close()
	require.NoError(t, resumed.Restore(f))
	run(resumed, 18)
	a, _ := straightEngine.Params()
	b, _ := resumedEngine.Params()
	require.Equal(t, a, b)
}

// TestUnregisteredTask: a task that is not registered trains through
// cpu.NewWithTask; a spec the task does not take is refused in one line.
func TestUnregisteredTask(t *testing.T) {
	cfg := config(t)
	cfg.Updates = 2
	e, err := cpu.NewWithTask(cfg, MaxDigit{})
	require.NoError(t, err)
	defer e.Close()
	tr, err := trainer.New(cfg, MaxDigit{}, e)
	require.NoError(t, err)
	_, err = tr.Update()
	require.NoError(t, err)
	cfg.TaskSpec = "digits=3"
	_, err = cpu.New(cfg)
	require.EqualError(t, err, `task_spec: the maxdigit task takes no options, got "digits=3"`)
}
