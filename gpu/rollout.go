//go:build cgo

package gpu

// The forward kernel: a rollout's launch and its reading steps.

import (
	"fmt"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/rng"
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
	untilDone  bool      // it may stop once every episode has ended: nothing after an end is read (an evaluation, or a masking estimator's update)
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

// rollout launches the forward kernel and returns its block count.
func (e *engine) rollout(s rolloutSpec) (int, error) {
	if e.games != nil {
		return e.hostRollout(s)
	}
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
	if e.O > 0 && e.scoreKind != scoreTape && e.observe == int(interp.ObserveNone) && s.mode != modeTeacherInputs {
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
	mask, group := e.cfg.MaskAfterAnswer, 1
	if s.train && s.mode == modeSample {
		group = e.cfg.GroupSize() // the batch's episodes; a replayed part is given its instances
	}
	reading := e.readSteps(s)
	until := s.untilDone && !e.fullLength
	if s.train {
		e.last.n, e.last.reading, e.last.steps, e.last.ends = s.n, reading, e.T, until
	}
	a := e.a.reset()
	a.ptr("P", e.P).ptr("table", e.table).ptr("whhT", e.whhT).ptr("headsT", e.headsT).ptr("headsB", e.headsB)
	a.i32("B", s.n).i32("T", e.T).i32("R", reading).i32("d", e.H).i32("V", e.V).i32("S", e.S).flag("use_smem_w", p.SmemW)
	a.i32("scorer", e.scoreKind).ptr("ops", e.ops).f64("partial_credit", e.partialCredit).i32("O", e.O).i32("observe", e.observe).i32("ctx_end", int(e.ctxEnd))
	a.u32("k0", e.key[0]).u32("k1", e.key[1]).u32("round", s.round).u32("purpose", uint32(s.purpose)).i32("fixed_level", s.level).
		i32("mix", mix).i32("unlocked", unlocked).f64("cdf0", cdf[0]).f64("cdf1", cdf[1]).i32("group", group)
	a.i32("mode", s.mode).flag("given_tasks", s.givenTasks).flag("train", s.train).i32("estimator", estimatorCode(e.cfg)).flag("mask", mask)
	a.f64("value_coef", e.cfg.ValueCoef).f64("entropy_coef", s.entropy).i32("loss_batch", s.n).ptr("rewards_in", rin)
	a.ptr("h", e.h).ptr("act", e.act).ptr("ghn", e.ghn).ptr("logp", e.logp).ptr("logpa", e.logpa).ptr("val", e.val).ptr("ent", e.ent)
	a.ptr("tokens", e.tokens).ptr("inputs", e.inputs).ptr("tasks", e.tasks).ptr("dlogp", e.dlogp).ptr("dent", e.dent).ptr("dval", e.dval).ptr("block_stats", e.stats)
	a.ptr("outcome", e.outcome).ptr("machines", e.machines).ptr("ep_return", e.epReturn).ptr("ep_end", e.epEnd).
		flag("until_done", until).ptr("steps_run", e.stepsRun)
	name := e.rolloutName(p.EPT)
	return p.Blocks, e.launch(name, [3]int{p.Blocks, 1, 1}, [3]int{p.DP, p.G, 1}, p.Smem, a)
}
