package trainer

import (
	"fmt"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// Trainer is one training run: the config, the task, the curriculum, the
// update counter and the checkpoint mapping, around an Engine that holds
// the model. Drive runs it to the end; Update steps it by hand.
type Trainer struct {
	cfg     Config
	task    task.Task
	layout  *gru.Layout
	e       Engine
	cur     *curriculum
	updates int
	lists   map[[2]int][]task.Instance // listed: (level, split) → its instances, or nil when too many
	// interrupt is Drive's Options.Interrupt, for the trainer's own long
	// calls into the task (listed); the engine has its own (SetInterrupt).
	interrupt <-chan struct{}
	// For an Itemized task with Config.ItemFocus or Config.Replay: the item
	// weights, the replay buffer, and the episodes each update records for
	// them (nil otherwise).
	focus  *itemFocus
	replay *replayBuffer
	record []task.Episode
	key    rng.Key
	// past is the history a checkpoint restored (history.go); running is
	// the report Drive is writing, which carries it on.
	past    history
	running *Report
}

// New starts a run of cfg on task t with e, an engine built for both (its
// model initialised from cfg.Seed): no update done, a fresh curriculum. It
// checks cfg against t, which it does not validate again: the engine's
// constructor did (cpu.NewWithTask), or task.Open. A panic in t's code
// meanwhile is returned as an error (task.PanicError).
func New(cfg Config, t task.Task, e Engine) (tr *Trainer, err error) {
	defer recoverTask(t, &err)
	if err := cfg.ValidateOpened(t); err != nil {
		return nil, err
	}
	l, err := enginekit.NewLayout(cfg.Hidden, t)
	if err != nil {
		return nil, err
	}
	p, err := e.Params()
	if err != nil {
		return nil, err
	}
	if len(p) != l.Size {
		// An engine of another config: its checkpoints would not be this run's.
		return nil, fmt.Errorf("trainer: the engine holds %d parameters, the config's model has %d", len(p), l.Size)
	}
	tr = &Trainer{cfg: cfg, task: t, layout: l, e: e, cur: newCurriculum(cfg, len(t.Levels())), key: rng.NewKey(cfg.Seed)}
	if it, ok := t.(task.Itemized); ok && (cfg.ItemFocus || cfg.Replay > 0) {
		tr.record = make([]task.Episode, cfg.Batch)
		for i := range tr.record {
			tr.record[i].Program = make([]int32, cfg.Steps)
		}
		if cfg.ItemFocus {
			tr.focus = newItemFocus(it)
		}
		if cfg.Replay > 0 {
			tr.replay = newReplayBuffer(it, cfg.Steps, cfg.Replay)
		}
	}
	return tr, nil
}

// Updates is the number of updates applied so far.
func (tr *Trainer) Updates() int { return tr.updates }

// Update runs the next training update on the engine: the curriculum's
// level (or a mixed update's level weights) and the entropy schedule's
// coefficient. A failed or interrupted update is not counted; a panic in
// the task's code is returned as an error (task.PanicError).
func (tr *Trainer) Update() (st UpdateStats, err error) {
	defer recoverTask(tr.task, &err)
	u := tr.updates + 1
	p := Plan{Update: u, Level: tr.cur.levelOf(u), Entropy: tr.cfg.EntropyAt(u), Record: tr.record}
	if p.Level < 0 {
		p.Played, p.CDF = tr.cur.played(), tr.cur.cdf
	}
	if tr.focus != nil {
		p.Items = tr.focus.cdf
	}
	if tr.replay != nil {
		p.Replay, p.ReplayCoef = tr.replay.draw(tr.key, u), tr.cfg.ReplayCoef
	}
	st, err = tr.e.Update(p)
	if err != nil {
		return st, err
	}
	tr.updates = u
	if tr.focus != nil {
		tr.focus.observe(tr.record)
	}
	if tr.replay != nil {
		tr.replay.observe(tr.record)
	}
	return st, nil
}

// Checkpoint captures everything needed to continue bit-identically, on
// any engine: the parameters and Adam's moments as the engine holds them
// (the file's tensors may be views of them: write it before the next
// update), the update counter and the curriculum.
func (tr *Trainer) Checkpoint() (*checkpoint.File, error) {
	p, err := tr.e.Params()
	if err != nil {
		return nil, err
	}
	m, v, step, err := tr.e.Moments()
	if err != nil {
		return nil, err
	}
	f := buildCheckpoint(tr.cfg, tr.layout, p, m, v, tr.updates, step, tr.cur)
	tr.saveItems(f)
	tr.saveHistory(f)
	return f, nil
}

// Restore continues from a checkpoint of the same configuration (any
// engine's): parameters, Adam's moments and step, update counter,
// curriculum (-resume). A refused file changes nothing.
func (tr *Trainer) Restore(f *checkpoint.File) (err error) {
	defer recoverTask(tr.task, &err) // a replayed entry is drawn again: the task's code
	n := tr.layout.Size
	p, m, v := make([]float32, n), make([]float32, n), make([]float32, n)
	cur := newCurriculum(tr.cfg, len(tr.task.Levels()))
	update, step, err := restoreCheckpoint(f, tr.layout, p, m, v, cur)
	if err != nil {
		return err
	}
	applyItems, err := tr.itemsRestorer(f)
	if err != nil {
		return err
	}
	past, err := readHistory(f, update, len(tr.task.Levels()))
	if err != nil {
		return err
	}
	if err := tr.e.SetParams(p); err != nil {
		return err
	}
	if err := tr.e.SetMoments(m, v, step); err != nil {
		return err
	}
	tr.cur, tr.updates, tr.past, tr.running = cur, update, past, nil
	applyItems()
	return nil
}

// LoadWeights replaces the parameters by f's, checking every name, shape and
// value, and leaves the optimiser and the counters as they are (-load). A
// training state in f, which it does not take, must still be sound (a
// broken one is a damaged file); a file with none is weights only. A
// refused file changes nothing.
func (tr *Trainer) LoadWeights(f *checkpoint.File) error {
	p := make([]float32, tr.layout.Size)
	if err := enginekit.LoadParams(f, tr.layout, p); err != nil {
		return err
	}
	if err := checkLoadedState(f); err != nil {
		return err
	}
	return tr.e.SetParams(p)
}

// paramSHA256 hashes the engine's parameters (enginekit.HashParams).
func (tr *Trainer) paramSHA256() (string, error) {
	p, err := tr.e.Params()
	if err != nil {
		return "", err
	}
	return enginekit.HashParams(p), nil
}
