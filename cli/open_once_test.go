package cli

import (
	"os"
	"os/exec"
	"sync/atomic"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// counted is the seed task under another name, counting how often the
// registry opens it and how often it is validated: task.Validate asks for
// its answer token, which nothing else reads during a run without -replay
// of a task that steps itself (the seed's Env, not one that scores).
type counted struct{ task.Task }

var opens, answers atomic.Int64

func (counted) Name() string { return "test-counted" }
func (c counted) Answer() int32 {
	answers.Add(1)
	return c.Task.Answer()
}

func (c counted) NewEnv(rows int) task.Env { return c.Task.(task.Stepper).NewEnv(rows) }

// countedEnv, set, registers counted: in a process of the test binary of
// its own, so that the other tests' list of tasks stays the built-in one.
const countedEnv = "SIMDRL_TEST_COUNTED_TASK"

func init() {
	if os.Getenv(countedEnv) == "" {
		return
	}
	task.Register("test-counted", func(spec string) (task.Task, error) {
		opens.Add(1)
		t, err := task.Open("seed", spec)
		return counted{t}, err
	})
}

// TestARunOpensItsTaskOnce: a command-line run opens its task once through
// the registry (task.Open, which validates it) and hands the opened task
// on: the config's defaults and checks, the engine and the trainer take it
// without opening or validating it again.
func TestARunOpensItsTaskOnce(t *testing.T) {
	if os.Getenv(countedEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestARunOpensItsTaskOnce$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), countedEnv+"=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Contains(t, string(out), "--- PASS: TestARunOpensItsTaskOnce", "the counting run ran")
		return
	}
	opens.Store(0)
	answers.Store(0)
	code, _, stderr := runCLI("-task", "test-counted", "-updates", "1", "-threads", "1", "-batch", "8", "-chunk", "8",
		"-eval-every", "0", "-final-episodes", "0", "-explain", "0")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, int64(1), opens.Load(), "opens through the registry")
	require.Equal(t, int64(1), answers.Load(), "validations (task.Validate)")
}
