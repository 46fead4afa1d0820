//go:build cgo

package gpu

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
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
	finSumSq
	finNorm
	finScale
	finOK
	nFin
)

// Rollout modes (rollout.cu).
const (
	modeSample  = 0
	modeGreedy  = 1
	modeTeacher = 2
	// modeTeacherInputs is modeTeacher with, for a model with observations,
	// every step's input given too (the inputs buffer): the golden cases.
	modeTeacherInputs = 3
)

// Scorers (kernels/common.cuh, SIMDRL_SCORE_*).
const (
	scoreSeed = 0 // env.cuh: the reference's tool environment
	scoreCalc = 1 // calc.cuh: a task.Interpreted's op table
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
	// gru.MaxContext−1, the most context tokens but the end, 0 for the bag.
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
	last                       struct{ n, reading int }
	givenLongest, drawnLongest int

	// How the kernels see the task: the scorer's kind (its op table is in
	// ops) and partial credit, the not-action logit offsets, and whether the kernel draws the instances (the seed task's)
	// or the host does (task.Draw) and uploads them.
	scoreKind     int
	partialCredit float64
	hostDraw      bool
	// Observations: O (gru.Config.Observations, 0 for an open-loop task) and
	// the kind (interp.Observation) the kernels compute after every token; the
	// token table has NV = V·O rows then (V without), and the token-table
	// gradient runs in blocks of tokBlock threads.
	O, observe, NV, tokBlock int
	records                  []int32 // host: the instances of a rollout, record.Words each (hostRecords)
	ops, notAct              devPtr

	// parameters, gradient, Adam moments, derived tensors
	P, grad, m, v                       devPtr
	table, whhT, headsT, headsN, headsB devPtr
	h, act, ghn, logp                   devPtr
	logpa, val, ent, dlogp, dent, dval  devPtr
	tokens, tasks, rewardsIn, stats     devPtr
	inputs                              devPtr // O > 0 or R > 0: (R+T+1)×B token-table rows a·O + o (rollout.cu)
	outcome                             devPtr // maxN×2 float64: each episode's reward and correct flag (rollout.cu)
	gradReplay                          devPtr // the replayed episodes' gradient (engine.replay)
	dheads, dgh, dgin, dh0g             devPtr
	partWhh, partHeads, partTok, partH0 devPtr
	dT, h0s, sq, fin                    devPtr
	bufs                                []devPtr
	fwd, bwd                            tilePlan
	sWhh, sHeads, sTok, sH0             int // the most slabs of each reduction (slabCap), as allocated
	nsq                                 int
	adamStep                            int
	finHost                             [nFin]float64
	a                                   args
	stop                                <-chan struct{} // Engine.SetInterrupt; see engine.interrupted's callers
	onCheck                             func(at string) // tests: called at every interrupt check, named

	// tests: takes every launch instead of the device (engine.launch)
	onLaunch func(name string, a *args) error
}

// scorer is how the kernels score a task's programs.
type scorer struct {
	kind          int         // scoreSeed or scoreCalc
	ops           []interp.Op // scoreCalc: the op table, one per token
	partialCredit float64     // scoreCalc
	obs           int         // the observations (task.Observations): 0, or interp.SignObservations
	observe       int         // interp.Observation: interp.ObserveSigns when obs > 0
}

// observer is a calc task that declares its observation as data (the kind
// the kernels compute, calc.cuh's simdrl_calc_obs).
type observer interface {
	Observation() interp.Observation
}

// observationOf says what the kernels feed back after every token of t:
// nothing for an open-loop task, the signs of v and v − m for an
// Interpreted task that observes interp.ObserveSigns; any other observing task
// is refused.
func observationOf(t task.Task) (obs, observe int, err error) {
	n := task.Observations(t)
	if n == 0 {
		return 0, int(interp.ObserveNone), nil
	}
	ob, isObs := t.(observer)
	_, isInterp := t.(task.Interpreted)
	if !isInterp || !isObs || ob.Observation() != interp.ObserveSigns || n != interp.ObserveSigns.Observations() {
		return 0, 0, fmt.Errorf("gpu: the CUDA kernels observe only the calculator's signs of v and v − m (a task.Interpreted task with interp.ObserveSigns, %d observations), not task %s's %d observations; train it on the CPU", interp.SignObservations, t.Name(), n)
	}
	return n, int(interp.ObserveSigns), nil
}

// scorerOf says how the kernels score t: the seed task by its own
// environment, an Interpreted task by its op table; no other task runs on
// the GPU, nor one whose context end is not CTX (the kernels' SIMDRL_CTX).
func scorerOf(t task.Task) (scorer, error) {
	if end := task.ContextEnd(t); end != task.CTX {
		return scorer{}, fmt.Errorf("gpu: the CUDA kernels start every rollout at token %d (CTX), and task %s ends its contexts with %d (task.ContextEnder); train it on the CPU", task.CTX, t.Name(), end)
	}
	obs, observe, err := observationOf(t)
	if err != nil {
		return scorer{}, err
	}
	if task.IsSeed(t) {
		return scorer{kind: scoreSeed}, nil
	}
	if it, ok := t.(task.Interpreted); ok {
		if len(it.Ops()) != it.Vocab() {
			return scorer{}, fmt.Errorf("gpu: task %s has %d ops for a vocabulary of %d tokens", t.Name(), len(it.Ops()), it.Vocab())
		}
		return scorer{kind: scoreCalc, ops: it.Ops(), partialCredit: it.PartialCredit(), obs: obs, observe: observe}, nil
	}
	return scorer{}, fmt.Errorf("gpu: the CUDA kernels score the seed task and tasks on the calculator's op table (task.Interpreted), not %s", t.Name())
}

// newEngine allocates everything for cfg and task t on d (device thread).
func newEngine(d *Device, cfg trainer.Config, t task.Task, l *gru.Layout) (*engine, error) {
	e := &engine{d: d, cfg: cfg, task: t, l: l, V: l.Vocab, H: l.Hidden, S: l.Levels, T: cfg.Steps, B: cfg.Batch, key: rng.NewKey(cfg.Seed)}
	e.maxN = maxEpisodes(cfg)
	if l.Read {
		e.R = gru.MaxContext - 1
	}
	for _, lv := range t.Levels() {
		e.drawnLongest = max(e.drawnLongest, lv.Context)
	}
	e.givenLongest = e.R // until uploadTasks says
	V, H, T, B, RS := e.V, e.H, e.T, e.B, e.R
	sc, err := scorerOf(t)
	if err != nil {
		return nil, err
	}
	e.scoreKind, e.partialCredit = sc.kind, sc.partialCredit
	e.hostDraw = sc.kind != scoreSeed
	// The kernels' O is the model's. A task that observes feeds it from its
	// machine; a model with observations for a task without them (the
	// golden cases' teacher forcing) can only be run with the inputs given
	// (modeTeacherInputs, engine.rollout).
	if sc.obs > 0 && l.Observations != sc.obs {
		return nil, fmt.Errorf("gpu: task %s has %d observations and its model %d", t.Name(), sc.obs, l.Observations)
	}
	e.O, e.observe, e.NV = l.Observations, sc.observe, l.InputRows()
	if e.tokBlock = tokenBlock(e.NV); e.tokBlock == 0 {
		return nil, fmt.Errorf("gpu: a token table of %d rows (%d tokens × %d observations) is more than the CUDA kernels' %d", e.NV, V, e.O, maxTokenRows)
	}
	V1, G3 := V+1, 3*H
	if e.fwd, err = planTiles(B, H, V, e.O, d.SMs, d.SmemOptin, false); err != nil {
		return nil, err
	}
	if e.bwd, err = planTiles(B, H, V, e.O, d.SMs, d.SmemOptin, true); err != nil {
		return nil, err
	}
	e.slabCaps()
	e.nsq = min(256, ceilDiv(l.Size, 256))

	// Every buffer is listed first and allocated only when the total fits in
	// the device's memory: a configuration too large is refused, not half
	// allocated.
	type buffer struct {
		p     *devPtr
		bytes int
	}
	var plan []buffer
	f32 := func(p *devPtr, n int) { plan = append(plan, buffer{p, 4 * n}) }
	f64 := func(p *devPtr, n int) { f32(p, 2*n) }
	N := l.Size
	f32(&e.P, N)
	f32(&e.grad, N)
	f32(&e.m, N)
	f32(&e.v, N)
	f32(&e.table, e.NV*G3)
	f32(&e.whhT, H*G3)
	f32(&e.headsT, H*V1)
	f32(&e.headsN, V1*H)
	f32(&e.headsB, V1)
	f32(&e.h, (RS+T+1)*B*H)
	f32(&e.act, (RS+T)*B*G3)
	f32(&e.ghn, (RS+T)*B*H)
	f32(&e.logp, T*B*V)
	for _, p := range []*devPtr{&e.logpa, &e.val, &e.ent, &e.dlogp, &e.dent, &e.dval} {
		f32(p, T*B)
	}
	f32(&e.tokens, (T+1)*e.maxN)
	if e.O > 0 || RS > 0 {
		f32(&e.inputs, (RS+T+1)*e.maxN)
	}
	f32(&e.tasks, record.Words*e.maxN)
	f32(&e.ops, record.OpWords*V)
	f32(&e.notAct, V)
	f32(&e.rewardsIn, B)
	f64(&e.stats, 5*e.maxN)
	f64(&e.outcome, 2*e.maxN)
	f32(&e.gradReplay, N)
	f32(&e.dheads, T*B*V1)
	f32(&e.dgh, (RS+T)*B*G3)
	f32(&e.dgin, (RS+T)*B*H)
	f32(&e.dh0g, B*H)
	f32(&e.partWhh, e.sWhh*G3*(H+1))
	f32(&e.partHeads, e.sHeads*V1*(H+1))
	f32(&e.partTok, e.sTok*e.NV*G3)
	f32(&e.partH0, e.sH0*(V+e.S)*H)
	f32(&e.dT, e.NV*G3)
	f32(&e.h0s, (V+e.S)*H)
	f64(&e.sq, 256)
	f64(&e.fin, nFin)
	total := 0.0
	for _, b := range plan {
		total += float64(b.bytes)
	}
	if d.TotalMem > 0 && total > float64(d.TotalMem) {
		return nil, &trainer.ResourceError{Need: total, Have: float64(d.TotalMem), Knob: "batch"}
	}
	for _, b := range plan {
		if err == nil {
			*b.p, err = d.alloc(b.bytes)
			e.bufs = append(e.bufs, *b.p)
		}
	}
	if err == nil {
		err = e.uploadTask(sc.ops, l.NotActions)
	}
	if err != nil {
		e.free()
		return nil, err
	}
	return e, nil
}

// uploadTask writes the op table (three int32 per token, zero for the seed
// task, which does not read it) and the not-action logit offsets.
func (e *engine) uploadTask(ops []interp.Op, notActions []int32) error {
	table := make([]int32, record.OpWords*e.V) // zero: the seed's scorer reads no table
	copy(table, record.OpTable(ops))
	offset := make([]float32, e.V)
	for _, tok := range notActions {
		offset[tok] = gru.NotActionLogit
	}
	if err := upload(e.ops, table); err != nil {
		return err
	}
	return upload(e.notAct, offset)
}

// maxTokenRows is the most token-table rows simdrl_token_partial handles:
// its NV accumulators per thread fill 48 KB of shared memory at 32 threads.
const maxTokenRows = 48 << 10 / (4 * 32)

// tokenBlock is simdrl_token_partial's block size for a table of NV rows:
// 128 threads as before while NV accumulators each fit in 48 KB of shared
// memory (the default limit), fewer for the longer tables of an observing
// task; 0 when not even 32 fit.
func tokenBlock(NV int) int {
	for _, bd := range []int{128, 64, 32} {
		if 4*NV*bd <= 48<<10 {
			return bd
		}
	}
	return 0
}

// The tiles of the gradient reductions (gradients): dW_hh|db_hh and the
// heads (simdrl_gemm_tn), the token table and h0.
func (e *engine) whhTiles() int  { return ceilDiv(e.H, 96) * ceilDiv(3*e.H, 96) }
func (e *engine) headTiles() int { return ceilDiv(e.H, 96) * ceilDiv(e.V+1, 32) }
func (e *engine) tokTiles() int  { return ceilDiv(3*e.H, e.tokBlock) }
func (e *engine) h0Tiles() int   { return ceilDiv(e.H, 128) }

// slabCaps sets the most slabs of each reduction: every training rollout
// has at most B episodes and R reading steps, and the reductions' partial
// sums are allocated for the most slabs any of them takes.
func (e *engine) slabCaps() {
	B, T, sms := e.B, e.T, e.d.SMs
	e.sWhh = slabCap((e.R+T)*B, e.whhTiles(), sms)
	e.sHeads = slabCap(T*B, e.headTiles(), sms)
	e.sTok = slabCap((e.R+T)*B, e.tokTiles(), sms)
	e.sH0 = slabCap(B, e.h0Tiles(), sms)
}

// hostRecords is the host's buffer for n instance records.
func (e *engine) hostRecords(n int) []int32 {
	if len(e.records) < record.Words*n {
		e.records = make([]int32, record.Words*max(n, e.maxN))
	}
	return e.records[:record.Words*n]
}

// longestContext is the longest context among records (record.ContextLen).
func longestContext(records []int32) int {
	n := 0
	for i := 0; i+record.Words <= len(records); i += record.Words {
		n = max(n, record.ContextLen(records[i:]))
	}
	return n
}

// uploadTasks uploads records as the instances of the next rollout with
// given tasks, and remembers their longest context (readSteps).
func (e *engine) uploadTasks(records []int32) error {
	e.givenLongest = longestContext(records)
	return upload(e.tasks, records)
}

// readSteps is how many reading steps rollout s runs: none for the bag;
// else its longest context (the end not counted): that of the records
// uploadTasks uploaded, or the task's longest level when the kernel draws
// the instances. Rows of shorter contexts wait (copy their h) before
// theirs, so the numbers do not depend on it (the CPU aligns its chunks at
// their longest context too); the cost does: the reading steps' GRU steps,
// and the backward's reductions, which run over (reading + T)·B rows.
func (e *engine) readSteps(s rolloutSpec) int {
	if e.R == 0 {
		return 0
	}
	n := e.drawnLongest
	if s.givenTasks {
		n = e.givenLongest
	}
	return min(max(n, 0), e.R)
}

func (e *engine) free() {
	for _, p := range e.bufs {
		e.d.free(p)
	}
	e.bufs = nil
}

// The rollout and backward kernels by episodes per thread (tileChoices):
// the bag's, and a reading layout's (R > 0: the kernels with the reading
// steps compiled in, so that the bag's keep their registers).
var (
	rolloutKernel     = map[int]string{1: "simdrl_rollout_e1", 2: "simdrl_rollout_e2", 4: "simdrl_rollout_e4", 8: "simdrl_rollout_e8"}
	backwardKernel    = map[int]string{1: "simdrl_backward_e1", 2: "simdrl_backward_e2", 4: "simdrl_backward_e4", 8: "simdrl_backward_e8"}
	rolloutReadKernel = map[int]string{1: "simdrl_rollout_read_e1", 2: "simdrl_rollout_read_e2", 4: "simdrl_rollout_read_e4",
		8: "simdrl_rollout_read_e8"}
	backwardReadKernel = map[int]string{1: "simdrl_backward_read_e1", 2: "simdrl_backward_read_e2", 4: "simdrl_backward_read_e4",
		8: "simdrl_backward_read_e8"}
)

// rolloutName and backwardName are the kernels for EPT episodes per thread.
func (e *engine) rolloutName(ept int) string {
	if e.R > 0 {
		return rolloutReadKernel[ept]
	}
	return rolloutKernel[ept]
}

func (e *engine) backwardName(ept int) string {
	if e.R > 0 {
		return backwardReadKernel[ept]
	}
	return backwardKernel[ept]
}

// launch starts kernel name on the device (Device.launch checks a against
// the ABI table and the PTX), or hands it to onLaunch (tests).
func (e *engine) launch(name string, grid, block [3]int, smem int, a *args) error {
	if e.onLaunch != nil {
		return e.onLaunch(name, a)
	}
	return e.d.launch(name, grid, block, smem, a)
}

// gridFor is a 1-D grid of 256-thread blocks covering n elements.
func gridFor(n int) [3]int { return [3]int{max(1, min(ceilDiv(n, 256), 65535)), 1, 1} }

var block256 = [3]int{256, 1, 1}

// setParams uploads params and refreshes the derived tensors.
func (e *engine) setParams(params []float32) error {
	if err := upload(e.P, params); err != nil {
		return err
	}
	return e.derive()
}

func (e *engine) getParams(dst []float32) error { return download(dst, e.P) }

func (e *engine) derive() error {
	V, H := e.V, e.H
	total := e.NV*3*H + H*3*H + 2*H*(V+1) + V + 1
	e.a.reset().ptr("P", e.P).i32("d", H).i32("V", V).i32("S", e.S).i32("O", e.O).ptr("not_action", e.notAct).ptr("table", e.table).ptr("whhT", e.whhT).
		ptr("headsT", e.headsT).ptr("headsN", e.headsN).ptr("headsB", e.headsB)
	return e.launch("simdrl_derive", gridFor(total), block256, 0, &e.a)
}

// rolloutSpec is one rollout launch.
type rolloutSpec struct {
	n          int // episodes
	mode       int
	train      bool
	level      int // fixed level, or -1: drawn (mixed curriculum)
	purpose    rng.Purpose
	round      uint32
	givenTasks bool // the instances are in the tasks buffer (uploaded by drawOnHost or greedyPrograms)
	rewardsIn  bool
	played     []int     // level < 0: the levels drawn from (trainer.Plan)
	cdf        []float64 // and their cumulative weights
	entropy    float64   // the update's entropy coefficient
}

// rollout launches the forward kernel and returns its block count.
func (e *engine) rollout(s rolloutSpec) (int, error) {
	p := e.fwd
	if s.n != e.B || !s.train {
		var err error
		if p, err = planTiles(s.n, e.H, e.V, e.O, e.d.SMs, e.d.SmemOptin, false); err != nil {
			return 0, err
		}
	}
	if s.train && s.n > e.B {
		return 0, fmt.Errorf("gpu: training rollout of %d episodes in an engine sized for %d", s.n, e.B)
	}
	if s.n > e.maxN {
		return 0, fmt.Errorf("gpu: rollout of %d episodes in an engine sized for %d", s.n, e.maxN)
	}
	if e.O > 0 && e.observe == int(interp.ObserveNone) && s.mode != modeTeacherInputs {
		return 0, fmt.Errorf("gpu: a model with %d observations for task %s, which observes nothing, runs only on given inputs", e.O, e.task.Name())
	}
	// The kernel draws a level from the first two cumulative weights (the
	// seed task has three levels); a curriculum of fewer levels has fewer
	// weights, and the kernel reads only the first unlocked−1 of them.
	mix, unlocked, cdf := 0, 1, [2]float64{1, 1}
	if s.played != nil && s.level < 0 {
		mix, unlocked = packMix(s.played), len(s.played)
		copy(cdf[:], s.cdf)
	}
	rin := devPtr(0)
	if s.rewardsIn {
		rin = e.rewardsIn
	}
	step, mask := e.cfg.Baseline == "step", e.cfg.MaskAfterAnswer
	reading := e.readSteps(s)
	if s.train {
		e.last.n, e.last.reading = s.n, reading
	}
	a := e.a.reset()
	a.ptr("P", e.P).ptr("table", e.table).ptr("whhT", e.whhT).ptr("headsT", e.headsT).ptr("headsB", e.headsB)
	a.i32("B", s.n).i32("T", e.T).i32("R", reading).i32("d", e.H).i32("V", e.V).i32("S", e.S).flag("use_smem_w", p.SmemW)
	a.i32("scorer", e.scoreKind).ptr("ops", e.ops).f64("partial_credit", e.partialCredit).i32("O", e.O).i32("observe", e.observe)
	a.u32("k0", e.key[0]).u32("k1", e.key[1]).u32("round", s.round).u32("purpose", uint32(s.purpose)).i32("fixed_level", s.level).
		i32("mix", mix).i32("unlocked", unlocked).f64("cdf0", cdf[0]).f64("cdf1", cdf[1])
	a.i32("mode", s.mode).flag("given_tasks", s.givenTasks).flag("train", s.train).flag("step_baseline", step).flag("mask", mask)
	a.f64("value_coef", e.cfg.ValueCoef).f64("entropy_coef", s.entropy).i32("loss_batch", s.n).ptr("rewards_in", rin)
	a.ptr("h", e.h).ptr("act", e.act).ptr("ghn", e.ghn).ptr("logp", e.logp).ptr("logpa", e.logpa).ptr("val", e.val).ptr("ent", e.ent)
	a.ptr("tokens", e.tokens).ptr("inputs", e.inputs).ptr("tasks", e.tasks).ptr("dlogp", e.dlogp).ptr("dent", e.dent).ptr("dval", e.dval).ptr("block_stats", e.stats)
	a.ptr("outcome", e.outcome)
	name := e.rolloutName(p.EPT)
	return p.Blocks, e.launch(name, [3]int{p.Blocks, 1, 1}, [3]int{p.DP, p.G, 1}, p.Smem, a)
}

// gradients runs backward through time over the latest training rollout
// (e.last: the batch, or a part of the replayed episodes) and assembles the
// gradient of every parameter into grad (each element written once: no
// clearing needed).
func (e *engine) gradients() error {
	V, H, T, B, RS := e.V, e.H, e.T, e.last.n, e.last.reading
	V1, G3, R, RR := V+1, 3*H, T*B, (RS+T)*B
	if B <= 0 {
		return fmt.Errorf("gpu: gradients before a training rollout")
	}
	p := e.bwd
	if B != e.B {
		var err error
		if p, err = planTiles(B, H, V, e.O, e.d.SMs, e.d.SmemOptin, true); err != nil {
			return err
		}
	}
	sWhh, slabWhh := slabPlan(RR, e.whhTiles(), e.d.SMs)
	sHeads, slabHeads := slabPlan(R, e.headTiles(), e.d.SMs)
	sTok, slabTok := slabPlan(RR, e.tokTiles(), e.d.SMs)
	sH0, slabH0 := slabPlan(B, e.h0Tiles(), e.d.SMs)
	if sWhh > e.sWhh || sHeads > e.sHeads || sTok > e.sTok || sH0 > e.sH0 {
		return fmt.Errorf("gpu: %d reduction slabs in buffers for %d", max(sWhh, sHeads, sTok, sH0), min(e.sWhh, e.sHeads, e.sTok, e.sH0)) // slabCap's bound broken
	}
	a := e.a.reset()
	a.ptr("P", e.P).ptr("headsN", e.headsN).i32("B", B).i32("T", T).i32("R", RS).i32("d", H).i32("V", V).i32("S", e.S).flag("use_smem_w", p.SmemW)
	a.ptr("tasks", e.tasks).ptr("h", e.h).ptr("act", e.act).ptr("ghn", e.ghn).ptr("logp", e.logp).ptr("tokens", e.tokens)
	a.ptr("dlogp", e.dlogp).ptr("dent", e.dent).ptr("dval", e.dval)
	a.ptr("dheads", e.dheads).ptr("dgh", e.dgh).ptr("dgin", e.dgin).ptr("dh0g", e.dh0g)
	if err := e.launch(e.backwardName(p.EPT), [3]int{p.Blocks, 1, 1}, [3]int{p.DP, p.G, 1}, p.Smem, a); err != nil {
		return err
	}
	// dW_hh and db_hh: dghᵀ·h_t over all rows, the reading steps' too.
	a.reset().ptr("A", e.dgh).i32("lda", G3).ptr("Bm", e.h).i32("ldb", H).i32("M", G3).i32("N", H).i32("ones", 1).i32("R", RR).
		i32("slab", slabWhh).ptr("part", e.partWhh)
	if err := e.launch("simdrl_gemm_tn_m96", [3]int{ceilDiv(H, 96), ceilDiv(G3, 96), sWhh}, [3]int{192, 1, 1}, 0, a); err != nil {
		return err
	}
	// The heads: dheadsᵀ·h_{t+1}.
	a.reset().ptr("A", e.dheads).i32("lda", V1).ptr("Bm", e.h.at((RS+1)*B*H)).i32("ldb", H).i32("M", V1).i32("N", H).i32("ones", 1).i32("R", R).
		i32("slab", slabHeads).ptr("part", e.partHeads)
	if err := e.launch("simdrl_gemm_tn_m32", [3]int{ceilDiv(H, 96), ceilDiv(V1, 32), sHeads}, [3]int{192, 1, 1}, 0, a); err != nil {
		return err
	}
	// The token table's gradient (its NV rows: with observations, over each
	// step's input a·O + o), and h0's.
	in := e.tokens
	if e.O > 0 || e.R > 0 {
		in = e.inputs // reading: the reading steps' inputs, then the policy steps'
	}
	bd := e.tokBlock
	a.reset().ptr("dgh", e.dgh).ptr("dgin", e.dgin).ptr("tokens", in).i32("R", RR).i32("G3", G3).i32("V", e.NV).
		i32("slab", slabTok).ptr("part", e.partTok)
	if err := e.launch("simdrl_token_partial", [3]int{ceilDiv(G3, bd), sTok, 1}, [3]int{bd, 1, 1}, 4*e.NV*bd, a); err != nil {
		return err
	}
	a.reset().ptr("dh0g", e.dh0g).ptr("tasks", e.tasks).i32("B", B).i32("d", H).i32("V", V).i32("S", e.S).
		flag("read", e.R > 0).i32("slab", slabH0).ptr("part", e.partH0)
	if err := e.launch("simdrl_h0_partial", [3]int{ceilDiv(H, 128), sH0, 1}, [3]int{128, 1, 1}, 4*(V+e.S)*128, a); err != nil {
		return err
	}
	l := e.l
	sums := []struct {
		part                 devPtr
		S, M, N, ones, split int
		out                  devPtr
		ldo                  int
		bias, out2, bias2    devPtr
	}{
		{e.partWhh, sWhh, G3, H, 1, G3, e.grad.at(l.WHH.Offset), H, e.grad.at(l.BHH.Offset), 0, 0},
		{e.partHeads, sHeads, V1, H, 1, V, e.grad.at(l.PiW.Offset), H, e.grad.at(l.PiB.Offset), e.grad.at(l.VW.Offset), e.grad.at(l.VB.Offset)},
		{e.partTok, sTok, e.NV, G3, 0, e.NV, e.dT, G3, 0, 0, 0},
		{e.partH0, sH0, V + e.S, H, 0, V + e.S, e.h0s, H, 0, 0, 0},
	}
	for _, s := range sums {
		a.reset().ptr("part", s.part).i32("S", s.S).i32("M", s.M).i32("N", s.N).i32("ones", s.ones).i32("split", s.split).
			ptr("out", s.out).i32("ldo", s.ldo).ptr("bias", s.bias).ptr("out2", s.out2).ptr("bias2", s.bias2)
		if err := e.launch("simdrl_sum_slabs", gridFor(s.M*(s.N+s.ones)), block256, 0, a); err != nil {
			return err
		}
	}
	a.reset().ptr("P", e.P).ptr("dT", e.dT).ptr("h0s", e.h0s).i32("d", H).i32("V", V).i32("S", e.S).i32("O", e.O).ptr("grad", e.grad)
	return e.launch("simdrl_input_grads", gridFor(G3*H+G3+V*H+e.S*H+e.O*H), block256, 0, a)
}

// finish reduces the statistics of a rollout of nblocks blocks (and the
// gradient's squares when withGrad) and copies fin back to the host.
func (e *engine) finish(nblocks int, withGrad bool, entropy float64) error {
	return e.finishWith(nblocks, withGrad, entropy, 0)
}

// finishWith is finish with extra added to the loss whose finiteness
// decides whether Adam steps (the replayed episodes' weighted term).
func (e *engine) finishWith(nblocks int, withGrad bool, entropy, extra float64) error {
	nsq := 0
	if withGrad {
		nsq = e.nsq
		e.a.reset().ptr("g", e.grad).i32("n", e.l.Size).ptr("part", e.sq)
		if err := e.launch("simdrl_sumsq_partial", [3]int{nsq, 1, 1}, block256, 0, &e.a); err != nil {
			return err
		}
	}
	e.a.reset().ptr("sq", e.sq).i32("nsq", nsq).ptr("stats", e.stats).i32("nblocks", nblocks).
		f64("clip", e.cfg.Clip).f64("value_coef", e.cfg.ValueCoef).f64("entropy_coef", entropy).f64("extra_loss", extra).ptr("fin", e.fin)
	if err := e.launch("simdrl_finish", [3]int{1, 1, 1}, block256, 0, &e.a); err != nil {
		return err
	}
	return download(e.finHost[:], e.fin)
}

// adam launches the optimiser step (skipped on the device when fin says the
// loss or norm is not finite) and refreshes the derived tensors.
func (e *engine) adam() error {
	const beta1, beta2, eps = enginekit.AdamBeta1, enginekit.AdamBeta2, enginekit.AdamEps
	step := e.adamStep + 1
	bc1 := 1 - math.Pow(beta1, float64(step))
	bc2 := 1 - math.Pow(beta2, float64(step))
	e.a.reset().ptr("p", e.P).ptr("g", e.grad).ptr("m", e.m).ptr("v", e.v).i32("n", e.l.Size).ptr("fin", e.fin).
		f32("beta1", beta1).f32("beta2", beta2).f32("eps", eps).f32("step_size", float32(e.cfg.LR/bc1)).f32("bc2_sqrt", float32(math.Sqrt(bc2)))
	if err := e.launch("simdrl_adam", gridFor(e.l.Size), block256, 0, &e.a); err != nil {
		return err
	}
	return e.derive()
}

// update runs training update p.Update (1-based) and returns its statistics. An
// interrupt is checked before the draw, before each part of the replayed
// episodes (p.Replay), between host-drawn parts, before the rollout launch,
// before the backward launches and, once finish has waited for those
// kernels, before the Adam step: up to there only scratch buffers are
// written, so an interrupted update changes nothing. A kernel already
// launched runs to its end.
func (e *engine) update(p trainer.Plan) (trainer.UpdateStats, error) {
	u, level, ec := p.Update, p.Level, p.Entropy
	st := trainer.UpdateStats{Update: u, Level: level}
	spec := rolloutSpec{n: e.B, mode: modeSample, train: true, level: level, purpose: rng.PurposeTask, round: uint32(u),
		played: p.Played, cdf: p.CDF, entropy: ec}
	if p.Record != nil && len(p.Record) != e.B {
		return st, fmt.Errorf("gpu: a record of %d episodes for a batch of %d", len(p.Record), e.B)
	}
	if e.interrupted("update") {
		return st, trainer.ErrInterrupted
	}
	// The replayed episodes first: their rollouts and gradients use the
	// buffers the batch's then overwrite, and leave their gradient in
	// gradReplay.
	replay := 0.0
	if len(p.Replay) > 0 {
		var err error
		if replay, err = e.replay(p.Replay, p.ReplayCoef); err != nil {
			return st, err
		}
	}
	draw, err := e.trainingDraw(p)
	if err != nil {
		return st, err
	}
	if draw != nil {
		if err := e.drawWith(e.B, draw); err != nil {
			return st, err
		}
		spec.givenTasks = true
	}
	if e.interrupted("rollout") {
		return st, trainer.ErrInterrupted
	}
	nb, err := e.rollout(spec)
	if err == nil && e.interrupted("backward") {
		err = trainer.ErrInterrupted
	}
	if err == nil {
		err = e.gradients()
	}
	if err == nil && len(p.Replay) > 0 {
		err = e.add(e.gradReplay, e.grad) // the replayed rows' gradient after the sampled rows'
	}
	if err == nil {
		err = e.finishWith(nb, true, ec, p.ReplayCoef*replay) // waits for the kernels (download)
	}
	if err == nil && e.interrupted("adam") {
		err = trainer.ErrInterrupted // the last point before anything is applied
	}
	if err == nil {
		err = e.adam()
	}
	if err == nil {
		err = e.sync()
	}
	if err != nil {
		return st, err
	}
	if st, err = e.readStats(u, ec, p.ReplayCoef, replay, st); err != nil {
		return st, err
	}
	if p.Record != nil {
		if err := e.record(p.Record, !spec.givenTasks); err != nil {
			return st, err
		}
	}
	return st, nil
}

// trainingDraw is how the host draws the batch's instances of plan p, or
// nil when the kernel draws them (the seed task): each episode's level (p's,
// or drawn by the curriculum's weights) and, when p weights a level's items
// (p.Items, a task.Itemized task), its item by enginekit.DrawItem and its
// instance by the task's DrawItem, else its task's Draw; the same
// instances as the CPU engine's, counter for counter.
func (e *engine) trainingDraw(p trainer.Plan) (func(b int) task.Instance, error) {
	u := uint32(p.Update)
	items := false
	for _, w := range p.Items {
		items = items || len(w) > 0
	}
	it, itemized := e.task.(task.Itemized)
	if items && (!itemized || !e.hostDraw) {
		return nil, fmt.Errorf("gpu: the plan weights the items of task %s, whose levels are not sets of items (task.Itemized)", e.task.Name())
	}
	if !e.hostDraw {
		return nil, nil
	}
	return func(b int) task.Instance {
		lv := p.Level
		if lv < 0 {
			lv = enginekit.DrawLevel(p.Played, p.CDF, e.key, u, uint32(b))
		}
		if items && lv < len(p.Items) && len(p.Items[lv]) > 0 {
			item := enginekit.DrawItem(p.Items[lv], e.key, u, uint32(b))
			return it.DrawItem(e.key, u, uint32(b), rng.PurposeTask, lv, task.Training, item)
		}
		return e.task.Draw(e.key, u, uint32(b), rng.PurposeTask, lv, task.Training)
	}, nil
}

// add launches y += x over the parameters' length.
func (e *engine) add(x, y devPtr) error {
	e.a.reset().ptr("x", x).i32("n", e.l.Size).ptr("y", y)
	return e.launch("simdrl_add", gridFor(e.l.Size), block256, 0, &e.a)
}

// replay plays the replayed episodes (trainer.Plan.Replay) teacher-forced,
// at most B a rollout, and leaves the sum of their gradients in gradReplay;
// it returns their negative log-likelihood, −(1/len(eps)) Σ_r Σ_{t ≤
// answer_r} logp_t(program_r[t]) (every step when a program never answers).
// Each part's loss weights are the host's: dlogp = −coef/len(eps) on the
// kept steps and 0 after them, no entropy or value term; the rollout's own
// (from its rewards) are overwritten before the backward, and its
// statistics are never read (the batch's rollout writes them again).
func (e *engine) replay(eps []task.Episode, coef float64) (float64, error) {
	T, V, nr := e.T, e.V, len(eps)
	answer := e.task.Answer()
	if err := e.d.zero(e.gradReplay, 4*e.l.Size); err != nil {
		return 0, err
	}
	w := float32(-coef / float64(nr))
	nll := 0.0
	for first := 0; first < nr; first += e.B {
		if e.interrupted("replay") {
			return 0, trainer.ErrInterrupted
		}
		part := eps[first:min(first+e.B, nr)]
		n := len(part)
		recs := e.hostRecords(n)
		tok, dl, zero, lp := make([]int32, (T+1)*n), make([]float32, T*n), make([]float32, T*n), make([]float32, T*n)
		kept := make([]int, n) // steps in the loss
		for i := range part {
			r := &part[i]
			if err := task.Check(e.task, &r.Instance); err != nil {
				return 0, fmt.Errorf("gpu: replayed episode %d: %w", first+i, err)
			}
			if len(r.Program) != T {
				return 0, fmt.Errorf("gpu: replayed episode %d has a program of %d tokens, not %d (the steps)", first+i, len(r.Program), T)
			}
			record.Pack(recs[record.Words*i:], &r.Instance)
			tok[i] = task.CTX
			kept[i] = T
			for s, a := range r.Program {
				if a < 0 || int(a) >= V {
					return 0, fmt.Errorf("gpu: replayed episode %d: token %d at step %d is not in the %s task's vocabulary", first+i, a, s, e.task.Name())
				}
				tok[(s+1)*n+i] = a
				if a == answer && kept[i] == T {
					kept[i] = s + 1
				}
			}
			for s := 0; s < kept[i]; s++ {
				dl[s*n+i] = w
			}
		}
		err := e.uploadTasks(recs)
		if err == nil {
			err = upload(e.tokens, tok)
		}
		if err == nil {
			_, err = e.rollout(rolloutSpec{n: n, mode: modeTeacher, train: true, level: 0, givenTasks: true, entropy: 0})
		}
		for _, x := range []struct {
			p   devPtr
			src []float32
		}{{e.dlogp, dl}, {e.dent, zero}, {e.dval, zero}} {
			if err == nil {
				err = upload(x.p, x.src)
			}
		}
		if err == nil {
			err = e.gradients()
		}
		if err == nil {
			err = e.add(e.grad, e.gradReplay)
		}
		if err == nil {
			err = download(lp, e.logpa)
		}
		if err != nil {
			return 0, err
		}
		for i := range part {
			for s := 0; s < kept[i]; s++ {
				nll -= float64(lp[s*n+i])
			}
		}
	}
	return nll / float64(nr), nil
}

// record fills rec (trainer.Plan.Record) with the batch's episodes: each
// instance (the host's records, or the kernel's when it drew them), its
// program, its reward as the update's statistics sum it (float32, as the
// loss reads it) and whether it was correct.
func (e *engine) record(rec []task.Episode, drawnOnDevice bool) error {
	B, T := e.B, e.T
	recs := e.hostRecords(B)
	tok, out := make([]int32, (T+1)*B), make([]float64, 2*B)
	var err error
	if drawnOnDevice {
		err = download(recs, e.tasks)
	}
	if err == nil {
		err = download(tok, e.tokens)
	}
	if err == nil {
		err = download(out, e.outcome)
	}
	if err != nil {
		return err
	}
	for b := range rec {
		ep := &rec[b]
		ep.Instance = record.Unpack(recs[record.Words*b:])
		if len(ep.Program) < T {
			ep.Program = make([]int32, T)
		}
		for t := 0; t < T; t++ {
			ep.Program[t] = tok[(t+1)*B+b]
		}
		ep.Reward, ep.Correct = out[2*b], out[2*b+1] != 0
	}
	return nil
}

func (e *engine) sync() error { return e.d.sync() }

// readStats reads the update's statistics from fin, with the replayed
// episodes' term (weighted by rc in the total), and checks them as
// cpu.Engine.Update does (enginekit.CheckLoss, enginekit.CheckGradNorm).
func (e *engine) readStats(u int, ec, rc, replay float64, st trainer.UpdateStats) (trainer.UpdateStats, error) {
	f := e.finHost
	B := float64(e.B)
	st.MeanReward, st.SolveRate = f[finReward]/B, f[finSolved]/B
	st.Loss = trainer.LossTerms{PG: f[finPG], Value: f[finValue], Entropy: f[finEntropy], Replay: replay}
	st.Loss.Total = st.Loss.PG + e.cfg.ValueCoef*st.Loss.Value + ec*st.Loss.Entropy
	if replay != 0 {
		st.Loss.Total += rc * replay
	}
	if err := enginekit.CheckLoss(u, st.Loss.Total); err != nil {
		return st, err
	}
	st.GradNorm = f[finNorm]
	if err := enginekit.CheckGradNorm(u, st.GradNorm); err != nil {
		return st, err
	}
	e.adamStep++
	return st, nil
}

// evaluate plays n greedy episodes of level on round of the evaluation
// stream, drawn from split. An interrupt is checked before the draw, between
// host-drawn parts and before the rollout launch.
func (e *engine) evaluate(level, n int, round uint32, split task.Split) (trainer.EvalResult, error) {
	res := trainer.EvalResult{Level: level, Episodes: n}
	if n <= 0 {
		return res, nil
	}
	if e.interrupted("evaluate") {
		return res, trainer.ErrInterrupted
	}
	spec := rolloutSpec{n: n, mode: modeGreedy, level: level, purpose: enginekit.EvalPurpose(level), round: round}
	if e.hostDraw {
		if err := e.drawOnHost(n, round, enginekit.EvalPurpose(level), func(int) int { return level }, split); err != nil {
			return res, err
		}
		spec.givenTasks = true
	}
	if e.interrupted("rollout") {
		return res, trainer.ErrInterrupted
	}
	nb, err := e.rollout(spec)
	if err == nil {
		err = e.finish(nb, false, 0)
	}
	if err != nil {
		return res, err
	}
	res.MeanReward = e.finHost[finReward] / float64(n)
	res.SolveRate = e.finHost[finSolved] / float64(n)
	return res, nil
}

// greedyRollout runs the greedy rollout s and returns its actions,
// episode-major (s.n×T).
func (e *engine) greedyRollout(s rolloutSpec) ([]int32, error) {
	n := s.n
	if _, err := e.rollout(s); err != nil {
		return nil, err
	}
	tok := make([]int32, (e.T+1)*n)
	if err := download(tok, e.tokens); err != nil {
		return nil, err
	}
	out := make([]int32, n*e.T)
	for b := 0; b < n; b++ {
		for t := 0; t < e.T; t++ {
			out[b*e.T+t] = tok[(t+1)*n+b]
		}
	}
	return out, nil
}

// greedyPrograms plays the given tasks greedily, at most maxN a launch, and
// returns their actions, episode-major. An interrupt is checked before each
// launch.
func (e *engine) greedyPrograms(tasks []task.Instance) ([]int32, error) {
	out := make([]int32, 0, len(tasks)*e.T)
	packed := make([]int32, record.Words*min(len(tasks), e.maxN))
	for first := 0; first < len(tasks); first += e.maxN {
		if e.interrupted("launch") {
			return nil, trainer.ErrInterrupted
		}
		part := tasks[first:min(first+e.maxN, len(tasks))]
		for i := range part {
			if err := task.Check(e.task, &part[i]); err != nil {
				return nil, fmt.Errorf("gpu: %w", err)
			}
			record.Pack(packed[record.Words*i:], &part[i])
		}
		if err := e.uploadTasks(packed[:record.Words*len(part)]); err != nil {
			return nil, err
		}
		acts, err := e.greedyRollout(rolloutSpec{n: len(part), mode: modeGreedy, givenTasks: true})
		if err != nil {
			return nil, err
		}
		out = append(out, acts...)
	}
	return out, nil
}

// drawOnHost draws the instances of n episodes with the task's Draw, episode
// b of level level(b) from purpose on round, and uploads them (drawWith).
func (e *engine) drawOnHost(n int, round uint32, purpose rng.Purpose, level func(b int) int, split task.Split) error {
	return e.drawWith(n, func(b int) task.Instance { return e.task.Draw(e.key, round, uint32(b), purpose, level(b), split) })
}

// drawWith draws the instances of n episodes, episode b's draw(b), and
// uploads them as records (rolloutSpec.givenTasks). Each instance, and each
// episode's level and item, is a pure function of its counters, so the
// parts drawn in parallel give the CPU's instances. Each part checks the
// interrupt every perPart episodes; an interrupted draw uploads nothing.
func (e *engine) drawWith(n int, draw func(b int) task.Instance) error {
	if n > e.maxN {
		return fmt.Errorf("gpu: %d episodes in an engine sized for %d", n, e.maxN)
	}
	recs := e.hostRecords(n)
	const perPart = 2048
	parts := min(runtime.GOMAXPROCS(0), ceilDiv(n, perPart))
	var wg sync.WaitGroup
	var stopped atomic.Bool
	for p := 0; p < parts; p++ {
		lo, hi := p*n/parts, (p+1)*n/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := lo; b < hi; b++ {
				if (b-lo)%perPart == 0 && (stopped.Load() || e.interrupted("draw")) {
					stopped.Store(true)
					return
				}
				in := draw(b)
				record.Pack(recs[record.Words*b:], &in)
			}
		}()
	}
	wg.Wait()
	if stopped.Load() {
		return trainer.ErrInterrupted
	}
	return e.uploadTasks(recs)
}
