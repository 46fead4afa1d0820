package policy

import (
	"fmt"
	"sync"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// Policy is a trained model and its task, read-only once loaded: any number
// of goroutines may use it at once, each episode in its own Session.
type Policy struct {
	task    task.Task
	cfg     trainer.Config
	layout  *gru.Layout
	params  []float32
	derived *gru.Derived
	end     int32        // the task's context end (task.ContextEnd)
	check   task.Checker // turns a panic in the task's code into its error
	// fields is a task.Fielded task's spec, read once (its Fields may
	// allocate); fielded says it has fields or a vector.
	fields  task.FieldSpec
	fielded bool

	sessions sync.Pool // *Session
	players  sync.Pool // *player
}

// Load reads the checkpoint at path and opens its task through the
// registry (task.Open of the task and spec its config names): New of it.
func Load(path string) (*Policy, error) {
	f, err := checkpoint.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return New(f)
}

// New is the policy of checkpoint f, its task opened through the registry
// (a program's own task must be registered, task.Register, or given to
// NewWithTask). A file that is not a simdrl checkpoint, names a task not
// registered, or holds tensors that do not fit its task's model is an error.
func New(f *checkpoint.File) (*Policy, error) {
	cfg, err := trainer.ReadCheckpointConfig(f)
	if err != nil {
		return nil, err
	}
	t, err := cfg.OpenTask()
	if err != nil {
		return nil, fmt.Errorf("checkpoint config: %v", err)
	}
	return NewWithTask(f, t)
}

// NewWithTask is the policy of checkpoint f for t, which need not be
// registered; f must be a checkpoint of t (its config names t, and its
// tensors have the shapes of t's model).
func NewWithTask(f *checkpoint.File, t task.Task) (p *Policy, err error) {
	cfg, err := trainer.ReadCheckpointConfig(f)
	if err != nil {
		return nil, err
	}
	// A task's methods run here (Levels, NewEnv, …): a panic in them is an
	// error of the task, never a crash of the caller.
	err = task.Guard(task.NameOf(t), "opened", func() error {
		p, err = build(cfg, f, t)
		return err
	})
	return p, err
}

func build(cfg trainer.Config, f *checkpoint.File, t task.Task) (*Policy, error) {
	if err := cfg.ValidateOpened(t); err != nil {
		return nil, fmt.Errorf("checkpoint config: %v", err)
	}
	l, err := enginekit.NewLayout(cfg.Hidden, t)
	if err != nil {
		return nil, err
	}
	l.Read = cfg.Context == trainer.ContextRead // as the engines' plan: the same tensors, another rollout
	params := make([]float32, l.Size)
	if err := enginekit.LoadParams(f, l, params); err != nil {
		return nil, err
	}
	if err := trainer.CheckLoadedState(f); err != nil {
		return nil, err
	}
	env := task.NewEnv(t, 1)
	if _, err := enginekit.NewFieldInputs(t, l, env); err != nil {
		return nil, err
	}
	if got := env.Observations(); got != l.Observations && !task.IsFielded(t) {
		return nil, fmt.Errorf("task %s: its Env observes %d tokens, the task declares %d (task.Observer)", t.Name(), got, l.Observations)
	}
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	return &Policy{task: t, cfg: cfg, layout: l, params: params, derived: dv, end: task.ContextEnd(t), check: task.NewChecker(t),
		fields: task.Fields(t), fielded: task.IsFielded(t)}, nil
}

// Task is the policy's task.
func (p *Policy) Task() task.Task { return p.task }

// Config is the configuration the checkpoint was trained with.
func (p *Policy) Config() trainer.Config { return p.cfg }

// Steps is the most tokens an episode plays: the configuration's rollout
// length (-steps).
func (p *Policy) Steps() int { return p.cfg.Steps }

// Vocab is the number of the task's tokens: the length of a distribution
// (Session.Probs).
func (p *Policy) Vocab() int { return p.layout.Vocab }

// Observations is the size of the task's observation vocabulary: 0 for a
// task whose policy reads only its own tokens (then every observation given
// to Session.Act is ignored).
func (p *Policy) Observations() int { return p.layout.Observations }
