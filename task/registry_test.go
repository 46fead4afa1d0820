package task_test

import (
	"strconv"
	"testing"

	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

// TestRegistry: seed, calc and expr register themselves; a registered task opens
// by name with its spec; a nil opener, an empty name and a name taken are
// programming errors (panics, as sql.Register's).
func TestRegistry(t *testing.T) {
	require.Subset(t, task.Names(), []string{"calc", "expr", "seed"})
	task.Register("test-echo", func(spec string) (task.Task, error) { return calctask.Calc(spec, 0) })
	require.Contains(t, task.Names(), "test-echo")
	tk, err := task.Open("test-echo", "a*b")
	require.NoError(t, err)
	require.Len(t, tk.Levels(), 1)
	require.PanicsWithValue(t, "task: Register called twice for seed", func() { task.Register("seed", func(string) (task.Task, error) { return seedtask.Seed(), nil }) })
	require.Panics(t, func() { task.Register("nil-opener", nil) })
	require.Panics(t, func() { task.Register("", func(string) (task.Task, error) { return seedtask.Seed(), nil }) })
	_, err = task.Open("Seed", "")
	require.ErrorContains(t, err, `unknown task "Seed" (registered: calc, countdown3, countdown4, expr, game24, seed, tape, test-echo)`, "names are exact")
}

// TestDeclarations: what the seed and calc tasks declare in place of their
// names (task.ReferenceSchedule, Titled, Tuned).
func TestDeclarations(t *testing.T) {
	_, ok := seedtask.Seed().(task.ReferenceSchedule)
	require.True(t, ok)
	require.Equal(t, "Level 2", seedtask.Seed().(task.Titled).LevelTitle(2))
	ct, err := calctask.OpenCalc("levels=a*b; partial_credit=0.7")
	require.NoError(t, err)
	_, ok = ct.(task.ReferenceSchedule)
	require.False(t, ok)
	require.True(t, task.IsSeed(seedtask.Seed()), "the seed task declares the reference's machine (task.SeedMachine)")
	require.False(t, task.IsSeed(ct))
	require.False(t, task.IsSeed(tasktest.ScoredOnly{Task: seedtask.Seed()}), "a task that does not declare it is not scored as the seed")
	require.Equal(t, task.Tuning{Spec: "levels=a*b; partial_credit=0.3", EntropyCoef: 0.5, Updates: 6000, EntropyUpdates: 6000}, ct.(task.Tuned).DefaultTuning())
}

// TestSpecEditors: calc and expr register their spec editors as a user's
// task would; the seed has none; a second registration is a programming
// error, as Register's is.
func TestSpecEditors(t *testing.T) {
	require.NotNil(t, task.SpecEditorOf("calc"))
	require.NotNil(t, task.SpecEditorOf("expr"))
	require.Nil(t, task.SpecEditorOf("seed"))
	require.Panics(t, func() { task.RegisterSpecEditor("calc", task.SpecEditorOf("expr")) })
	require.Panics(t, func() { task.RegisterSpecEditor("test-nil-editor", nil) })
}

// TestRegisterRefusesABadName: a task's name is a command-line word and a
// checkpoint's field, printed by -h: Register panics (a programming error
// at init) on a name with a control or escape code, a space, a leading
// dash, or over 64 bytes, quoting it; a task handed to an engine with such
// a Name is refused by Validate.
func TestRegisterRefusesABadName(t *testing.T) {
	open := func(string) (task.Task, error) { return seedtask.Seed(), nil }
	for _, name := range []string{"red\x1b[31m", "two words", "-dash", "tab\t", "new\nline", "ünï", string(make([]byte, 65))} {
		require.PanicsWithValue(t, "task: Register of "+strconv.Quote(name)+": "+task.NameRule, func() { task.Register(name, open) }, "%q", name)
		require.NotContains(t, task.Names(), name)
	}
	task.Register("test_ok.v2-1", open)
	require.Contains(t, task.Names(), "test_ok.v2-1")
	err := task.Validate(named{seedtask.Seed(), "bad\x1b[2J"})
	require.ErrorContains(t, err, `task name "bad\x1b[2J"`)
	require.NotContains(t, err.Error(), "\x1b")
}

// named is a task under another name.
type named struct {
	task.Task
	name string
}

func (n named) Name() string             { return n.name }
func (n named) NewEnv(rows int) task.Env { return n.Task.(task.Stepper).NewEnv(rows) }
