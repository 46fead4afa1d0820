//go:build cgo

package gpu

// Host-stepped rollouts: a task that is none of the kernels' machines (any
// Go game, Stepper or Scorer: task.NewEnv) trains on the GPU with its game
// on the host. The device runs the policy one step at a time for the whole
// batch (hoststep.cu: the rollout's math, on the rollout's counters), the
// host copies the actions back, steps each episode's game (in parallel over
// persistent workers, allocation-free) and uploads each episode's next
// input; the loss weights are the CPU engine's estimators' Go twins
// (hostloss.go) on the log-probabilities, values and entropies copied
// back, and the backward, reductions and Adam run as for the native tasks.
// The rollout stops once every episode has ended where nothing after an end
// is read (an evaluation, or an estimator that masks the steps after it).

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// hostGames is the host's side of a host-stepped task, allocated once for
// the engine's largest rollout (maxN episodes, T steps).
type hostGames struct {
	parts []gamePart
	jobs  []chan gameJob // one worker a part
	wg    sync.WaitGroup
	check *task.Checker
	O     int   // observations (the model's)
	start int32 // the first input's token (task.ContextEnd)

	instances []task.Instance // each episode's instance, as drawn (drawWith) or given
	acts      []int32         // a step's actions, copied back
	in        []int32         // each episode's next input row (a·O + o)
	obs       []int32         // a step's observations (task.Transition.Obs)
	// a task with a legal-action mask (its Envs are task.Maskers): each
	// episode's legal tokens for the next step (V each), and as uploaded
	masks      bool
	task       task.Task
	V          int
	legal      []bool
	legalWords []int32
	reward     []float64 // T×n step-major: each step's reward
	done       []bool    // T×n step-major: the episode has ended
	outcome    []float64 // n×2: each episode's reward and correct flag (the rollout's outcome buffer)

	// a Fielded task (fields.go): its spec, and each episode's fields and
	// vector for its next step (nf and F each), as written and uploaded
	spec      task.FieldSpec
	T         int // the rollouts' steps: no fields are written after the last
	fieldVals []int32
	fieldVec  []float32

	// training (B episodes): the steps read back, the returns and the loss weights
	estimate                           enginekit.Estimator // cfg's (hostEstimator)
	steps                              enginekit.StepMajor // its input's step values: logpa, val and ent (weigh)
	stops                              bool                // it weights no step after an episode's end (hostStops)
	logpa, val, ent, dlogp, dval, dent []float32           // T×B
	returns, togo                      []float32           // B, T×B
	end                                []int32             // B
	stats                              [nStats]float64
}

// gamePart is one worker's episodes, lo..hi−1 of the current rollout, on
// its own Env (rows: the part of the largest rollout).
type gamePart struct {
	env    task.Env
	masker task.Masker   // env, when the task has a legal-action mask
	fields task.FieldEnv // env, when the task is Fielded
	lo, hi int
	live   int   // episodes not yet ended after the last step
	err    error // the task's panic or broken contract, if any
}

// gameJob is a worker's order: reset (t < 0) or step t of a rollout of n
// episodes.
type gameJob struct{ t, n int }

// newHostGames allocates the host's side of e's task: one Env and one
// worker a part, the step buffers and, for training, the loss's.
func newHostGames(e *engine) (*hostGames, error) {
	if e.R > 0 {
		return nil, fmt.Errorf("gpu: task %s is stepped on the host, whose policy steps read no context (-context bag); train it on the CPU", e.task.Name())
	}
	if e.cfg.Estimator == trainer.EstimatorPPO {
		return nil, fmt.Errorf("gpu: task %s is stepped on the host, where estimator %s does not run; train it on the CPU", e.task.Name(), e.cfg.Estimator)
	}
	n, T, B := e.maxN, e.T, e.B
	parts := max(1, min(runtime.GOMAXPROCS(0), n))
	g := &hostGames{parts: make([]gamePart, parts), jobs: make([]chan gameJob, parts), check: &e.check, O: e.O, start: e.ctxEnd,
		instances: make([]task.Instance, n), acts: make([]int32, n), in: make([]int32, n), obs: make([]int32, n),
		reward: make([]float64, T*n), done: make([]bool, T*n), outcome: make([]float64, 2*n), estimate: hostEstimator(estimatorCode(e.cfg)), stops: hostStops(e.cfg),
		logpa: make([]float32, T*B), val: make([]float32, T*B), ent: make([]float32, T*B),
		dlogp: make([]float32, T*B), dval: make([]float32, T*B), dent: make([]float32, T*B),
		returns: make([]float32, B), togo: make([]float32, T*B), end: make([]int32, B)}
	g.task, g.V, g.masks = e.task, e.V, e.masks
	if g.masks {
		g.legal, g.legalWords = make([]bool, n*e.V), make([]int32, n*e.V)
	}
	g.T = T
	if task.IsFielded(e.task) {
		g.spec = task.Fields(e.task)
		g.fieldVals, g.fieldVec = make([]int32, n*len(g.spec.Sizes)), make([]float32, n*g.spec.Vector)
	}
	rows := ceilDiv(n, parts)
	for p := range g.parts {
		if err := task.Guard(task.NameOf(e.task), "opened", func() error {
			g.parts[p].env = task.NewEnv(e.task, rows)
			return nil
		}); err != nil {
			g.close() // the workers started so far
			return nil, err
		}
		g.parts[p].masker, _ = g.parts[p].env.(task.Masker) // (every part's Env is one when e.masks: task.Masks)
		if g.fieldVals != nil {
			var ok bool
			if g.parts[p].fields, ok = g.parts[p].env.(task.FieldEnv); !ok {
				g.close()
				return nil, fmt.Errorf("task %s declares fields (task.Fielded), but its Env does not write them (task.FieldEnv)", e.task.Name())
			}
		}
		g.jobs[p] = make(chan gameJob)
		go g.worker(p)
	}
	return g, nil
}

// close stops the workers.
func (g *hostGames) close() {
	for _, c := range g.jobs {
		if c != nil {
			close(c)
		}
	}
}

func (g *hostGames) worker(p int) {
	for j := range g.jobs[p] {
		g.run(&g.parts[p], j)
		g.wg.Done()
	}
}

// run resets or steps part's episodes. A panic in the task's code, or an
// observation outside the task's, is the part's error (as a CPU chunk's).
func (g *hostGames) run(part *gamePart, j gameJob) {
	defer func() {
		if v := recover(); v != nil {
			part.err = g.check.Panic(v)
		}
	}()
	lo, hi := part.lo, part.hi
	if j.t < 0 {
		for b := lo; b < hi; b++ {
			o := part.env.Reset(b-lo, &g.instances[b])
			if part.fields != nil {
				o = g.writeFields(part, b)
			}
			g.in[b] = g.input(g.start, o)
		}
		part.live = hi - lo
		g.maskNext(part)
		return
	}
	s := j.t * j.n
	part.env.Step(g.acts[lo:hi], task.Transition{Obs: g.obs[lo:hi], Reward: g.reward[s+lo : s+hi], Done: g.done[s+lo : s+hi]})
	part.live = 0
	for b := lo; b < hi; b++ {
		switch {
		case part.fields == nil:
			g.in[b] = g.input(g.acts[b], g.obs[b])
		case j.t+1 < g.T: // (the CPU writes no fields after the last step: no input follows it)
			g.in[b] = g.input(g.acts[b], g.writeFields(part, b))
		}
		if !g.done[s+b] {
			part.live++
		}
	}
	g.maskNext(part)
}

// maskNext writes the legal tokens of part's episodes for their next step
// (as the CPU's worker.maskNext): a row left with no legal token breaks the
// task's contract, the part's error.
func (g *hostGames) maskNext(part *gamePart) {
	if part.masker == nil {
		return
	}
	V := g.V
	for b := part.lo; b < part.hi; b++ {
		row := g.legal[b*V : (b+1)*V]
		part.masker.Legal(b-part.lo, row)
		if err := task.CheckLegal(g.task, row); err != nil {
			panic(err)
		}
		for a, ok := range row {
			g.legalWords[b*V+a] = int32(b2f(ok))
		}
	}
}

// input is the token-table row of token tok followed by observation o
// (gru.Layout.Input); an observation outside the task's breaks its Env's
// contract, as on the CPU.
func (g *hostGames) input(tok, o int32) int32 {
	if g.O == 0 {
		return tok
	}
	if o < 0 || int(o) >= g.O {
		panic(&task.ViolationError{Err: g.check.Observation(o)})
	}
	return tok*int32(g.O) + o
}

// dispatch runs job j on every part (n episodes split evenly) and waits;
// it returns the first part's error and how many episodes are still live.
func (g *hostGames) dispatch(j gameJob) (live int, err error) {
	P := len(g.parts)
	g.wg.Add(P)
	for p := range g.parts {
		part := &g.parts[p]
		part.lo, part.hi, part.err = p*j.n/P, (p+1)*j.n/P, nil
		g.jobs[p] <- j
	}
	g.wg.Wait()
	for p := range g.parts {
		if err == nil && g.parts[p].err != nil {
			err = g.parts[p].err
		}
		live += g.parts[p].live
	}
	return live, err
}

// correct reports whether episode b (of the current rollout) ended correct.
func (g *hostGames) correct(b int) bool {
	for p := range g.parts {
		if part := &g.parts[p]; b >= part.lo && b < part.hi {
			return part.env.Correct(b - part.lo)
		}
	}
	return false
}

// hostRollout is engine.rollout for a host-stepped task: s's episodes are
// the records and instances drawWith uploaded and kept (s.givenTasks). It
// writes what the native rollout writes for the backward (training: h, act,
// ghn, logp, the tokens, the inputs with observations, and the loss weights)
// and one block of statistics, and returns that block count (1).
func (e *engine) hostRollout(s rolloutSpec) (int, error) {
	g, n, T, H := e.games, s.n, e.T, e.H
	if !s.givenTasks || s.mode > modeGreedy {
		return 0, fmt.Errorf("gpu: a host-stepped rollout plays given instances, sampled or greedy")
	}
	if s.train && n != e.B {
		return 0, fmt.Errorf("gpu: a host-stepped training rollout of %d episodes in an engine sized for %d", n, e.B)
	}
	// h_t: training writes every step's (the backward reads them); else
	// two rows an episode, in turn.
	hAt := func(t int) devPtr { return e.hostH.at((t & 1) * n * H) }
	if s.train {
		hAt = func(t int) devPtr { return e.h.at(t * n * H) }
		e.last.n, e.last.reading, e.last.ends = n, 0, false
	}
	DP := (H + 31) / 32 * 32
	a := e.a.reset()
	a.ptr("P", e.P).i32("V", e.V).i32("d", H).i32("S", e.S).i32("B", n).i32("ctx_end", int(e.ctxEnd)).ptr("tasks", e.tasks).
		ptr("h", hAt(0)).ptr("tokens", e.tokens)
	if err := e.launch("simdrl_host_start", [3]int{n, 1, 1}, [3]int{DP, 1, 1}, 0, a); err != nil {
		return 0, err
	}
	if _, err := g.dispatch(gameJob{t: -1, n: n}); err != nil {
		return 0, err
	}
	inputs := e.tokens // the actions are the inputs without observations
	if e.O > 0 {
		inputs = e.inputs
		if err := upload(e.inputs, g.in[:n]); err != nil {
			return 0, err
		}
	}
	if err := e.uploadFields(0, n, s.train); err != nil {
		return 0, err
	}
	stops := s.untilDone || s.train && g.stops
	smem := kernelSmem("simdrl_host_step", 1, H, e.V, 0, false)
	steps := T
	legal := devPtr(0)
	if g.masks {
		legal = e.hostLegal
	}
	for t := 0; t < T; t++ {
		if e.interrupted("step") {
			return 0, trainer.ErrInterrupted
		}
		if g.masks {
			if err := upload(e.hostLegal, g.legalWords[:n*e.V]); err != nil {
				return 0, err
			}
		}
		row, rowV, row3 := t*n, t*n*e.V, t*n*3*H
		table, inRows, NV := e.table, inputs.at(row), e.NV
		if e.fielded { // the step reads each episode's input gates, summed first (fields.go)
			var err error
			if table, inRows, NV, err = e.fieldGates(t, n, s.train, inRows); err != nil {
				return 0, err
			}
		}
		a.reset().ptr("P", e.P).ptr("table", table).ptr("whhT", e.whhT).ptr("headsT", e.headsT).ptr("headsB", e.headsB).
			i32("B", n).i32("d", H).i32("V", e.V).i32("S", e.S).i32("NV", NV).i32("t", t).i32("mode", s.mode).flag("train", s.train).
			u32("k0", e.key[0]).u32("k1", e.key[1]).u32("round", s.round).ptr("in_rows", inRows).ptr("legal", legal).ptr("h_in", hAt(t)).ptr("h_out", hAt(t+1))
		if s.train {
			a.ptr("act", e.act.at(row3)).ptr("ghn", e.ghn.at(row*H)).ptr("logp", e.logp.at(rowV)).ptr("logpa", e.logpa.at(row)).
				ptr("val", e.val.at(row)).ptr("ent", e.ent.at(row))
		} else {
			a.ptr("act", 0).ptr("ghn", 0).ptr("logp", 0).ptr("logpa", 0).ptr("val", 0).ptr("ent", 0)
		}
		a.ptr("actions", e.tokens.at(row+n))
		if err := e.launch("simdrl_host_step", [3]int{n, 1, 1}, [3]int{DP, 1, 1}, smem, a); err != nil {
			return 0, err
		}
		if err := download(g.acts[:n], e.tokens.at(row+n)); err != nil {
			return 0, err
		}
		live, err := g.dispatch(gameJob{t: t, n: n})
		if err != nil {
			return 0, err
		}
		if e.O > 0 && t+1 < T {
			if err := upload(e.inputs.at(row+n), g.in[:n]); err != nil {
				return 0, err
			}
		}
		if t+1 < T {
			if err := e.uploadFields(t+1, n, s.train); err != nil {
				return 0, err
			}
		}
		if stops && live == 0 {
			steps = t + 1
			break
		}
	}
	// Past the last step run every episode has ended: it earns nothing,
	// and its tokens are 0 (a record reads them).
	clear(g.reward[steps*n : T*n])
	for i := steps * n; i < T*n; i++ {
		g.done[i] = true
	}
	if steps < T {
		if err := e.d.zero(e.tokens.at((steps+1)*n), 4*(T-steps)*n); err != nil {
			return 0, err
		}
	}
	if s.train {
		e.last.steps = steps
		return 1, e.hostLoss(s, steps)
	}
	st := &g.stats
	*st = [nStats]float64{}
	for b := 0; b < n; b++ {
		r := 0.0
		for t := 0; t < T; t++ {
			r += g.reward[t*n+b]
		}
		g.outcome[2*b], g.outcome[2*b+1] = r, b2f(g.correct(b))
		st[statReward] += r
		st[statSolved] += g.outcome[2*b+1]
	}
	return 1, e.hostStats(n)
}

// hostLoss writes a host-stepped training rollout's loss weights (the CPU
// engine's estimators, hostloss.go, on the steps copied back: those after the last step
// run are zero, as a retired episode's on the CPU), its statistics and
// outcomes.
func (e *engine) hostLoss(s rolloutSpec, steps int) error {
	g, n, T := e.games, s.n, e.T
	run := steps * n
	for _, c := range []struct {
		host []float32
		dev  devPtr
	}{{g.logpa, e.logpa}, {g.val, e.val}, {g.ent, e.ent}} {
		if err := download(c.host[:run], c.dev); err != nil {
			return err
		}
		clear(c.host[run : T*n])
	}
	terms := g.weigh(n, T, e.cfg.GroupSize(), hostScale(e.cfg, n, s.entropy))
	st := &g.stats
	*st = [nStats]float64{}
	for b := 0; b < n; b++ {
		r := 0.0 // the float64 return, which says what the task paid where float32 says +Inf
		for t := 0; t < T; t++ {
			r += g.reward[t*n+b]
		}
		if err := g.check.Reward(r, g.instances[b].Level); err != nil {
			return err
		}
		g.outcome[2*b], g.outcome[2*b+1] = float64(g.returns[b]), b2f(g.correct(b))
		st[statReward] += float64(g.returns[b])
		st[statSolved] += g.outcome[2*b+1]
	}
	st[statPG], st[statValue], st[statEntropy] = terms.PG, terms.Value, terms.Entropy
	st[statFlat] = g.flatGroups(n, e.cfg.GroupSize(), estimatorCode(e.cfg)) // hostloss.go
	for _, c := range []struct {
		host []float32
		dev  devPtr
	}{{g.dlogp, e.dlogp}, {g.dval, e.dval}, {g.dent, e.dent}} {
		if err := upload(c.dev, c.host[:run]); err != nil {
			return err
		}
	}
	return e.hostStats(n)
}

// hostStats uploads the rollout's statistics as one block (finish sums
// them) and each episode's outcome (engine.record reads them).
func (e *engine) hostStats(n int) error {
	if err := upload(e.stats, e.games.stats[:]); err != nil {
		return err
	}
	return upload(e.outcome, e.games.outcome[:2*n])
}

// hostGamesMemory is the host memory newHostGames allocates for task t when
// it is stepped on the host (none for any other task), in shares by the
// Config field that drives each: per episode of the largest rollout, and
// per training episode. Of the task's own Envs it counts what their games
// declare they hold (task.GameBytes: a countdown task's no-revisit sets),
// one game per episode of the largest rollout.
func hostGamesMemory(cfg trainer.Config, t task.Task) enginekit.Memory {
	m := enginekit.Memory{}
	if sc, err := scorerOf(t); err != nil || sc.kind != scoreHost {
		return m
	}
	T := float64(cfg.Steps)
	perEpisode := float64(unsafe.Sizeof(task.Instance{})) + 3*4 + T*(8+1) + 2*8 // instance; action, input, observation; reward, done; outcome
	if task.Masks(t) {
		perEpisode += float64(t.Vocab()) * (1 + 4) // legal, legalWords
	}
	if s := task.Fields(t); task.IsFielded(t) {
		perEpisode += float64(len(s.Sizes)+s.Vector) * 4 // fieldVals, fieldVec
	}
	perEpisode += task.GameBytes(t)
	m[largestRollout(cfg)] += float64(maxEpisodes(cfg)) * perEpisode
	m["batch"] += float64(cfg.Batch) * (7*T*4 + 4 + 4) // logpa, val, ent, dlogp, dval, dent, togo; returns, end
	return m
}

// keepInstance keeps episode b's instance for its game (drawWith's and
// greedyPrograms' instances of a host-stepped task).
func (e *engine) keepInstance(b int, in *task.Instance) {
	if e.games != nil {
		e.games.instances[b] = *in
	}
}

// hostInstance is episode b's instance as kept (engine.record), or false
// for a task the kernels draw or play.
func (e *engine) hostInstance(b int) (task.Instance, bool) {
	if e.games == nil {
		return task.Instance{}, false
	}
	return e.games.instances[b], true
}

func b2f(x bool) float64 {
	if x {
		return 1
	}
	return 0
}

// The statistics of a block (kernels/common.cuh, SIMDRL_STAT_*).
const (
	statReward = iota
	statSolved
	statPG
	statValue
	statEntropy
	statFlat
)
