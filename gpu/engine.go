//go:build cgo

package gpu

// The engine: a model's dimensions, launch plans and device buffers, built
// once by newEngine (its methods run on the device thread), and the indices
// of the statistics the kernels hand back (fin).

import (
	"fmt"

	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// Indices into fin (kernels/common.cuh, SIMDRL_FIN_*).
const (
	finReward = iota
	finSolved
	finPG
	finValue
	finEntropy
	finFlat // groups whose returns are all equal (estimate.go)
	finSumSq
	finNorm
	finScale
	finOK
	nFin
)

// engine holds a model and every device buffer an update needs; its methods
// run on the device thread (inside Device.do).
type engine struct {
	d       *Device
	cfg     trainer.Config
	task    task.Task
	l       *gru.Layout
	V, H, S int // vocabulary, hidden width, levels
	T       int // steps
	// R is the most reading steps of a layout that reads (gru.Config.Read):
	// its longest context but the end (gru.Config.Shown, at most
	// record.MaxShown: scorerOf), 0 for the bag.
	// The rollout's h, act and ghn, and the backward's dgh and dgin, hold
	// up to R reading steps before the T policy steps; inputs then holds
	// every step's input (rollout.cu's read_context). Each launch reads
	// only as many steps as its longest context (readSteps).
	R    int
	B    int // training batch: the activations are sized for it
	maxN int // most episodes of any rollout (evaluations too)
	key  rng.Key
	// last is the latest rollout's episodes and reading steps, which
	// gradients differentiates (a training rollout's: the batch, or a part
	// of the replayed episodes). givenLongest is the longest context of the
	// records uploaded last (uploadTasks), drawnLongest the longest of any
	// instance the kernel draws (the seed task's levels).
	last struct {
		n, reading, steps int  // steps: the policy steps it ran (hostRollout may stop before T)
		ends              bool // its tiles stopped once their episodes had ended (rollout.cu's until_done): the backward skips the steps after epEnd's
	}
	givenLongest, drawnLongest int
	fullLength                 bool // the native rollouts never stop early (until_done off): the tests' reference

	// draws are the host's draws (hostdraw.go), started by the first.
	draws *hostDrawer

	// How the kernels see the task: the scorer's kind (its op table is in
	// ops) and partial credit, the not-action logit offsets, and whether the kernel draws the instances (the seed task's)
	// or the host does (task.Draw) and uploads them.
	scoreKind     int
	masks         bool // scoreHost: the task has a legal-action mask (its Envs are task.Maskers)
	partialCredit float64
	hostDraw      bool
	// ctxEnd is the task's context end (task.ContextEnd), every rollout's
	// first token.
	ctxEnd int32
	// check refuses the instances the host draws (drawWith) that the
	// records or the reading steps could not hold, as the CPU engine does.
	check task.Checker
	// Observations: O (gru.Config.Observations, 0 for an open-loop task) and
	// the kind (interp.Observation) the kernels compute after every token; the
	// token table has NV = V·O rows then (V without), and the token-table
	// gradient runs in blocks of tokBlock threads.
	O, observe, NV, tokBlock int
	host                     hostBuffers // every host buffer (hostPlan)
	ops, notAct              devPtr

	// A fielded layout (gru.Layout.Fielded, fields.go): nf fields of FR
	// values in all (the table's rows after the V tokens') and a vector of
	// F; the field rows' gradient runs in at most sField slabs.
	fielded                      bool
	nf, FR, F                    int
	sField                       int
	vecM, gates, iota, fieldOffs devPtr // 3d×F; maxN×3d, a step's input gates; 0..maxN−1; nf+1 field offsets
	fieldIn, fieldVec            devPtr // fieldRows×nf, ×F: the fields and vectors as uploaded (uploadFields)
	partField, dF, dM            devPtr // the field rows' gradient per slab, summed (FR×3d); vecM's (3d×F)

	// parameters, gradient, Adam moments, derived tensors
	P, grad, m, v                       devPtr
	table, whhT, headsT, headsN, headsB devPtr
	h, act, ghn, logp                   devPtr
	logpa, val, ent, dlogp, dent, dval  devPtr
	tokens, tasks, rewardsIn, stats     devPtr
	epReturn, epEnd                     devPtr     // B each: a training episode's return (float32) and end step (int32) (rollout.cu)
	stepsRun                            devPtr     // maxN int32: each rollout block's steps run (rollout.cu's steps_run: T unless it stopped)
	inputs                              devPtr     // O > 0 or R > 0: (R+T+1)×B token-table rows a·O + o (rollout.cu)
	outcome                             devPtr     // maxN×2 float64: each episode's reward and correct flag (rollout.cu)
	machines                            devPtr     // scoreTape: maxN tape machines (tape.cuh's simdrl_tape_state)
	hostH                               devPtr     // scoreHost: 2×maxN×d, an untrained host-stepped rollout's h_t and h_{t+1}
	hostLegal                           devPtr     // scoreHost with a legal-action mask: maxN×V, a step's legal tokens (int32)
	games                               *hostGames // scoreHost: the games the host steps (hoststep.go)
	gradReplay                          devPtr     // the replayed episodes' gradient (engine.replay)
	dheads, dgh, dgin, dh0g             devPtr
	partWhh, partHeads, partTok, partH0 devPtr
	dT, h0s, sq, fin                    devPtr
	bufs                                []devPtr
	fwd, bwd                            tilePlan
	sWhh, sHeads, sTok, sH0             int // the most slabs of each reduction (slabCap), as allocated
	nsq                                 int
	adamStep                            int
	finHost                             [nFin]float64
	diag                                trainer.Diagnostics // a group estimator's update's (flatGroups): returned by pointer, it allocates nothing
	a                                   args
	stop                                <-chan struct{} // Engine.SetInterrupt; see engine.interrupted's callers
	onCheck                             func(at string) // tests: called at every interrupt check, named

	// tests: takes every launch instead of the device (engine.launch)
	onLaunch func(name string, a *args) error

	// -estimator ppo (ppo.go): the stored rollout, the Env that replays its
	// programs on the host, and Adam's step count before the update
	ppo                            ppoStore
	ppoEnv                         task.Env
	ppoSavedStep                   int
	ppoOld, ppoEnd, ppoMB, ppoSums devPtr // ppoBuffers
}

// newEngine allocates everything for cfg and task t on d (device thread).
func newEngine(d *Device, cfg trainer.Config, t task.Task, l *gru.Layout) (*engine, error) {
	e := &engine{d: d, cfg: cfg, task: t, l: l, V: l.Vocab, H: l.Hidden, S: l.Levels, T: cfg.Steps, B: cfg.Batch, key: rng.NewKey(cfg.Seed)}
	e.maxN = maxEpisodes(cfg)
	e.allocateHost()
	e.allocatePPO()
	if l.Read {
		e.R = min(l.Shown, record.MaxShown)
	}
	for _, lv := range t.Levels() {
		e.drawnLongest = max(e.drawnLongest, lv.Context)
	}
	e.givenLongest = e.R // until uploadTasks says
	V, H, B := e.V, e.H, e.B
	sc, err := scorerOf(t)
	if err != nil {
		return nil, err
	}
	e.scoreKind, e.partialCredit, e.ctxEnd = sc.kind, sc.partialCredit, sc.ctxEnd
	e.hostDraw = sc.kind != scoreSeed
	e.masks = sc.kind == scoreHost && task.Masks(t)
	e.check = task.NewChecker(t)
	// The kernels' O is the model's. A task that observes feeds it from its
	// machine; a model with observations for a task without them (the
	// golden cases' teacher forcing) can only be run with the inputs given
	// (modeTeacherInputs, engine.rollout).
	if sc.obs > 0 && l.Observations != sc.obs {
		return nil, fmt.Errorf("gpu: task %s has %d observations and its model %d", t.Name(), sc.obs, l.Observations)
	}
	e.O, e.observe, e.NV = l.Observations, sc.observe, l.InputRows()
	e.fielded, e.nf, e.FR, e.F = l.Fielded(), len(l.Fields), l.FieldRows(), l.Vector
	if e.fielded && sc.kind != scoreHost {
		return nil, fieldsNotHosted(t)
	}
	if e.tokBlock = tokenBlock(e.NV); e.tokBlock == 0 {
		return nil, fmt.Errorf("gpu: a token table of %d rows (%d tokens × %d observations) is more than the CUDA kernels' %d", e.NV, V, e.O, maxTokenRows)
	}
	if e.fwd, err = planTiles(B, H, V, e.O, d.SMs, d.SmemOptin, false); err != nil {
		return nil, err
	}
	if e.bwd, err = planTiles(B, H, V, e.O, d.SMs, d.SmemOptin, true); err != nil {
		return nil, err
	}
	e.slabCaps()
	e.nsq = min(256, ceilDiv(l.Size, 256))

	err = e.allocate()
	if err == nil {
		err = e.uploadTask(sc.ops, l.NotActions)
	}
	if err == nil {
		err = e.uploadFieldTables()
	}
	if err == nil && sc.kind == scoreHost {
		e.games, err = newHostGames(e)
	}
	if err != nil {
		e.free()
		return nil, err
	}
	return e, nil
}

// allocateHost allocates every host buffer of e (hostPlan), once.
func (e *engine) allocateHost() {
	for _, b := range hostPlan(e.cfg, e.l, &e.host) {
		b.make()
	}
}

func (e *engine) free() {
	if e.draws != nil {
		e.draws.close()
		e.draws = nil
	}
	if e.games != nil {
		e.games.close()
		e.games = nil
	}
	for _, p := range e.bufs {
		e.d.free(p)
	}
	e.bufs = nil
}

func (e *engine) sync() error { return e.d.sync() }
