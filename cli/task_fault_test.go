package cli

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// hostile is the seed task under another name, misbehaving as faultMode
// says: a user's task with a bug in the code the command calls while it
// opens and checks the task (or, "draw", while it trains).
type hostile struct{ task.Task }

// faultMode picks hostile's misbehaviour: the name of the method that
// panics ("open" for its opener), "nil" for an opener that returns
// neither a task nor an error, "nil-levels" for a task without levels.
var faultMode string

func faultIf(mode string) {
	if faultMode == mode {
		panic("hostile " + mode + "\ngoroutine 1 [running]:") // a multi-line value stays one line
	}
}

func (hostile) Name() string { faultIf("name"); return "test-hostile" }
func (h hostile) Vocab() int { faultIf("vocab"); return h.Task.Vocab() }
func (h hostile) Levels() []task.Level {
	faultIf("levels")
	switch faultMode {
	case "nil-levels":
		return nil
	case "budget-300":
		return []task.Level{{Name: "long", Context: 3, Budget: 300, Shortest: 3}}
	}
	return h.Task.Levels()
}
func (h hostile) Answer() int32 { faultIf("answer"); return h.Task.Answer() }
func (h hostile) NotActions() []int32 {
	faultIf("notactions")
	if faultMode == "tokenname" { // the answer among the non-actions: Validate spells it
		return []int32{h.Task.Answer()}
	}
	return h.Task.NotActions()
}
func (h hostile) TokenName(tok int32) string { faultIf("tokenname"); return h.Task.TokenName(tok) }
func (h hostile) Observations() int          { faultIf("observations"); return 0 }
func (h hostile) ObservationName(o int32) string {
	return "o"
}
func (h hostile) DefaultTuning() task.Tuning {
	faultIf("tuning")
	if faultMode == "tuning-updates" {
		return task.Tuning{Updates: -5}
	}
	return task.Tuning{}
}
func (h hostile) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split) task.Instance {
	faultIf("draw")
	return h.Task.Draw(key, round, episode, purpose, level, split)
}
func (h hostile) OrderSensitive() bool { faultIf("order"); return false }

func (h hostile) NewEnv(rows int) task.Env {
	return hostileEnv{h.Task.(task.Stepper).NewEnv(rows)}
}

// hostileEnv is the seed task's Env, paying 1e300 at every step in faultMode
// "reward": finite, but no float32.
type hostileEnv struct{ task.Env }

func (e hostileEnv) Step(actions []int32, out task.Transition) {
	e.Env.Step(actions, out)
	if faultMode == "reward" {
		for i := range actions {
			out.Reward[i] = 1e300
		}
	}
}

// hostileVar, set, registers hostile: in a process of the test binary of
// its own, so that the other tests' list of tasks stays the built-in one.
const hostileVar = "SIMDRL_TEST_HOSTILE_TASK"

func init() {
	if os.Getenv(hostileVar) == "" {
		return
	}
	task.Register("test-hostile", func(spec string) (task.Task, error) {
		faultIf("open")
		switch faultMode {
		case "nil":
			return nil, nil
		case "open-error":
			return nil, errors.New("no data in /nonexistent")
		}
		t, err := task.Open("seed", spec)
		return hostile{t}, err
	})
}

// TestATasksFaultIsOneLineExitOne: a bug in a user's task met while the
// command opens and checks it (a panic in any of its methods or its
// opener, an opener that returns no task, a task with no levels) is one
// line that names the task, exit 1 (the task failed; no flag is wrong),
// never a goroutine trace; a panic in Draw during training too. -h, which
// lists the tasks, opens none.
func TestATasksFaultIsOneLineExitOne(t *testing.T) {
	if os.Getenv(hostileVar) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestATasksFaultIsOneLineExitOne$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), hostileVar+"=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Contains(t, string(out), "--- PASS: TestATasksFaultIsOneLineExitOne", "the hostile run ran")
		return
	}
	defer func() { faultMode = "" }()
	faultMode = "name"
	code, stdout, stderr := runCLI("-h")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "test-hostile")

	args := []string{"-task", "test-hostile", "-updates", "1", "-threads", "1", "-batch", "8", "-chunk", "8",
		"-eval-every", "0", "-final-episodes", "0", "-explain", "0"}
	for _, mode := range []string{"open", "nil", "name", "vocab", "levels", "nil-levels", "answer", "notactions",
		"tokenname", "observations", "tuning", "order", "draw"} {
		faultMode = mode
		code, _, stderr := runCLI(args...)
		require.Equal(t, 1, code, "%s: %s", mode, stderr)
		require.Equal(t, 1, strings.Count(stderr, "\n"), "%s: one line: %s", mode, stderr)
		require.True(t, strings.HasPrefix(stderr, "simdrl: "), "%s: %s", mode, stderr)
		require.Contains(t, stderr, "test-hostile", "%s: names the task", mode)
		require.NotContains(t, stderr, "-task-spec", "%s: names no flag nobody typed", mode)
		if mode != "nil" && mode != "nil-levels" && mode != "tokenname" {
			require.Contains(t, stderr, "hostile "+mode, "%s: says what it panicked with", mode)
		}
	}

	// A setting the task's opener, tuning or levels got wrong names the
	// task, not a flag nobody typed (the flag typed is named as ever).
	for mode, want := range map[string]string{
		"open-error":     "the test-hostile task: no data in /nonexistent",
		"tuning-updates": "the test-hostile task's defaults: updates must be in 0..",
		"budget-300":     "the test-hostile task's defaults: steps must be in 1..256, got 300",
	} {
		faultMode = mode
		code, _, stderr := runCLI(args[:2]...)
		require.Equal(t, 2, code, "%s: %s", mode, stderr)
		require.Contains(t, stderr, want, mode)
		require.Equal(t, 1, strings.Count(stderr, "\n"), "%s: one line: %s", mode, stderr)
		for _, flag := range []string{"-task-spec", "-updates", "-steps"} {
			require.NotContains(t, stderr, flag+" ", "%s: %s", mode, stderr)
			require.NotContains(t, stderr, flag+":", "%s: %s", mode, stderr)
		}
	}
	faultMode = "open-error"
	code, _, stderr = runCLI("-task", "test-hostile", "-task-spec", "x=1")
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "-task-spec: no data in /nonexistent", "the flag typed is named")

	// A return beyond float32's range while training: its value, not +Inf.
	faultMode = "reward"
	code, _, stderr = runCLI(args...)
	require.Equal(t, 1, code, stderr)
	require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
	require.Regexp(t, `the test-hostile task paid a return of \d(\.\d+)?e\+300 `, stderr) // 1e300 a step
	require.Contains(t, stderr, "float32", stderr)

	// -resume reopens the checkpoint's task: the same line, after the file's name.
	faultMode = ""
	ck := t.TempDir() + "/h.st"
	code, _, stderr = runCLI(append(args, "-save", ck)...)
	require.Equal(t, 0, code, stderr)
	for _, mode := range []string{"open", "levels", "vocab"} {
		faultMode = mode
		code, _, stderr := runCLI("-resume", ck, "-updates", "2")
		require.Equal(t, 1, code, "%s: %s", mode, stderr)
		require.Equal(t, 1, strings.Count(stderr, "\n"), "%s: one line: %s", mode, stderr)
		require.Contains(t, stderr, "-resume "+ck+": ", mode)
		require.Contains(t, stderr, "test-hostile task panicked", mode)
	}
}
