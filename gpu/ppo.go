//go:build cgo

package gpu

// PPO (-estimator ppo) on the GPU, cpu/ppo.go's twin. An update:
//
//  1. rolls the batch out by sampling (the training rollout, as update
//     does) and reads back what PPO stores: each episode's record, its
//     tokens, log-probabilities and values;
//  2. replays the programs through the task's Env on the host, as the CPU's
//     rollout steps it, for each step's reward and each episode's end and
//     whether it was truncated or terminated (Transition.Truncated, or
//     task.InferTruncated for a Stepper that does not report it), then
//     GAE(λ) (enginekit.GAE);
//  3. uploads what the weights read (old log-probabilities, values,
//     advantages, returns, ends: ppoBuffers), then for each epoch and
//     minibatch (enginekit.PPOShuffle) uploads the minibatch's records,
//     tokens and episode numbers, replays them teacher-forced with the
//     current parameters (the rollout kernel, modeTeacher: the replayed
//     episodes' path), writes the clipped surrogate's loss weights on the
//     device (simdrl_ppo_weights: kernels/ppo.cuh, enginekit.PPOStep's twin,
//     as cpu/ppo.go's weigh), and runs the backward, the norm and the Adam
//     step; only the weights' block sums come back.
//
// If the update fails or is interrupted after its first Adam step, the
// parameters and Adam's state are put back as they were before it
// (ppoRestore), as the CPU does.

import (
	"fmt"
	"math"

	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// ppoSums are a minibatch's sums over its steps.
type ppoSums struct{ pg, value, entropy, kl, clipped float64 }

// updatePPO is update for -estimator ppo.
func (e *engine) updatePPO(p trainer.Plan) (trainer.UpdateStats, error) {
	u, ec, s := p.Update, p.Entropy, &e.ppo
	st := trainer.UpdateStats{Update: u, Level: p.Level}
	set := e.cfg.PPO()
	if e.interrupted("update") {
		return st, trainer.ErrInterrupted
	}
	drawnOnDevice, err := e.ppoRollout(p)
	if err != nil {
		return st, err
	}
	B := float64(e.B)
	st.MeanReward, st.SolveRate = e.finHost[finReward]/B, e.finHost[finSolved]/B
	if p.Record != nil {
		if err := e.record(p.Record, drawnOnDevice); err != nil {
			return st, err
		}
	}
	if err := e.ppoStore(set); err != nil {
		return st, err
	}
	if err := e.ppoSave(); err != nil {
		return st, err
	}
	E, M := set.Epochs, set.Minibatches
	S := e.B / M
	var total ppoSums
	var loss trainer.LossTerms
	steps := 0
	fail := func(err error) (trainer.UpdateStats, error) {
		if steps > 0 {
			if rerr := e.ppoRestore(); rerr != nil {
				return st, rerr
			}
		}
		return st, err
	}
	for epoch := 0; epoch < E; epoch++ {
		enginekit.PPOShuffle(s.perm, e.key, u, epoch)
		for mb := 0; mb < M; mb++ {
			if e.interrupted("minibatch") {
				return fail(trainer.ErrInterrupted)
			}
			l, sums, norm, err := e.ppoMinibatch(set, s.perm[mb*S:(mb+1)*S], u, ec)
			if err != nil {
				return fail(err)
			}
			if e.interrupted("adam") {
				return fail(trainer.ErrInterrupted)
			}
			if err := e.adam(); err != nil {
				return fail(err)
			}
			e.adamStep++
			steps++
			loss.PG += l.PG
			loss.Value += l.Value
			loss.Entropy += l.Entropy
			loss.Total += l.Total
			st.GradNorm += norm
			total.kl += sums.kl
			total.clipped += sums.clipped
		}
	}
	if err := e.sync(); err != nil {
		return fail(err)
	}
	k := float64(E * M)
	st.Loss = trainer.LossTerms{PG: loss.PG / k, Value: loss.Value / k, Entropy: loss.Entropy / k, Total: loss.Total / k}
	st.GradNorm /= k
	st.Diagnostics = &trainer.Diagnostics{ApproxKL: total.kl / k, ClipFraction: total.clipped / k,
		ExplainedVariance: enginekit.ExplainedVariance(s.ret, s.value, s.end, e.T), Steps: E * M}
	return st, nil
}

// ppoRollout is the update's sampling rollout (update's, with the same
// draws) and its statistics (finHost: the batch's reward and solved
// episodes); it reports whether the kernel drew the instances.
func (e *engine) ppoRollout(p trainer.Plan) (bool, error) {
	spec := rolloutSpec{n: e.B, mode: modeSample, train: true, level: p.Level, purpose: rng.PurposeTask, round: uint32(p.Update),
		played: p.Played, cdf: p.CDF, entropy: p.Entropy}
	draw, err := e.trainingDraw(p)
	if err != nil {
		return false, err
	}
	if draw != nil {
		if err := e.drawWith(e.B, draw); err != nil {
			return false, err
		}
		spec.givenTasks = true
	}
	if e.interrupted("rollout") {
		return false, trainer.ErrInterrupted
	}
	nb, err := e.rollout(spec)
	if err == nil {
		err = e.finish(nb, false, p.Entropy)
	}
	return !spec.givenTasks, err
}

// ppoStore reads the batch's rollout back (records, tokens,
// log-probabilities, values), replays its programs through the task's Env
// for the rewards, ends and truncations, and writes each episode's GAE
// advantages and returns.
func (e *engine) ppoStore(set trainer.PPOSettings) error {
	s, B, T := &e.ppo, e.B, e.T
	err := download(s.records, e.tasks)
	if err == nil {
		err = download(s.tokens, e.tokens)
	}
	for _, x := range []struct {
		dst []float32
		src devPtr
	}{{s.logp, e.logpa}, {s.value, e.val}} {
		if err == nil {
			err = download(s.stepMajor, x.src)
		}
		for t := 0; t < T && err == nil; t++ {
			for b := 0; b < B; b++ {
				x.dst[b*T+t] = s.stepMajor[t*B+b]
			}
		}
	}
	if err == nil {
		err = download(e.host.outcomes[:2*B], e.outcome)
	}
	if err == nil {
		err = e.ppoSteps()
	}
	if err != nil {
		return err
	}
	for b := 0; b < B; b++ {
		k := b * T
		enginekit.GAE(s.reward[k:k+T], s.value[k:k+T], int(s.end[b]), s.trunc[b], set.Gamma, set.Lambda, s.adv[k:k+T], s.ret[k:k+T])
	}
	// what simdrl_ppo_weights reads of it, for every minibatch
	for i, x := range [][]float32{s.logp, s.value, s.adv, s.ret} {
		if err := upload(e.ppoOld.at(i*B*T), x); err != nil {
			return err
		}
	}
	return upload(e.ppoEnd, s.end)
}

// ppoSteps steps the task's Env over the stored programs, as the CPU's
// rollout does (cpu/rollout.go): each step's reward, and each episode's end
// (its first done step, else T−1) and whether it was truncated there (not
// done by T−1, or Truncated at its end: cpu/ppo.go's store). Each
// episode's return must be the kernel's (outcomes, read back): the Env
// and the kernels' scorer are one machine (internal/devfn checks them step
// by step), and a record the host read back wrong would show here.
func (e *engine) ppoSteps() error {
	s, B, T := &e.ppo, e.B, e.T
	env := e.ppoEnv
	for b := 0; b < B; b++ {
		s.instances[b] = record.Unpack(s.records[record.Words*b:])
		env.Reset(b, &s.instances[b])
		s.end[b], s.trunc[b] = -1, true
	}
	infer := !task.ReportsTruncation(env)
	for t := 0; t < T; t++ {
		out := task.Transition{Obs: s.obs, Reward: s.stepRew, Done: s.done, Truncated: s.cut}
		env.Step(s.tokens[(t+1)*B:(t+2)*B], out)
		if infer {
			task.InferTruncated(out, t, s.instances)
		}
		for b := 0; b < B; b++ {
			s.reward[b*T+t] = s.stepRew[b]
			if s.end[b] < 0 && s.done[b] {
				s.end[b], s.trunc[b] = int32(t), s.cut[b]
			}
		}
	}
	for b := 0; b < B; b++ {
		if s.end[b] < 0 {
			s.end[b] = int32(T - 1)
		}
		ret := 0.0
		for _, r := range s.reward[b*T : (b+1)*T] {
			ret += r
		}
		if k := e.host.outcomes[2*b]; math.Abs(float64(float32(ret))-k) > 1e-5*math.Max(1, math.Abs(k)) {
			return fmt.Errorf("gpu: ppo: episode %d of task %s returns %v on the host's Env and %v on the device", b, e.task.Name(), ret, k)
		}
	}
	return nil
}

// ppoMinibatch replays the minibatch mb of the stored episodes teacher-forced
// with the current parameters, writes its loss weights on the device
// (simdrl_ppo_weights) and leaves its gradient in grad and its norm and clip
// scale in fin (finish); it returns its loss (means over its steps), sums
// (kl and clipped as means too) and gradient norm, checked as the CPU
// checks them.
func (e *engine) ppoMinibatch(set trainer.PPOSettings, mb []int32, u int, ec float64) (trainer.LossTerms, ppoSums, float64, error) {
	s, T, B, n, W := &e.ppo, e.T, e.B, len(mb), record.Words
	var l trainer.LossTerms
	var sums ppoSums
	N, mean, scale := enginekit.PPOAdvantages(s.adv, s.end, T, mb, set.NormAdv)
	recs, tok := e.hostRecords(n), e.host.tokens[:(T+1)*n]
	for i, ep := range mb {
		copy(recs[W*i:W*(i+1)], s.records[W*int(ep):])
		tok[i] = e.ctxEnd
		for t := 0; t < T; t++ {
			tok[(t+1)*n+i] = s.tokens[(t+1)*B+int(ep)]
		}
	}
	err := e.uploadTasks(recs)
	if err == nil {
		err = upload(e.tokens, tok)
	}
	if err == nil {
		err = upload(e.ppoMB, mb)
	}
	if err == nil {
		_, err = e.rollout(rolloutSpec{n: n, mode: modeTeacher, train: true, level: 0, givenTasks: true})
	}
	blocks := ppoWeightBlocks(n)
	if err == nil {
		err = e.ppoWeights(n, set, mean, scale, N, ec)
	}
	if err == nil {
		err = e.gradients()
	}
	part := s.sums[:ppoSumWords*blocks]
	if err == nil {
		err = download(part, e.ppoSums)
	}
	if err != nil {
		return l, sums, 0, err
	}
	for b := 0; b < blocks; b++ { // in block order: the same sums on every run
		x := part[ppoSumWords*b:]
		sums.pg += x[0]
		sums.value += x[1]
		sums.entropy += x[2]
		sums.kl += x[3]
		sums.clipped += x[4]
	}
	l = trainer.LossTerms{PG: sums.pg / N, Value: sums.value / N, Entropy: -sums.entropy / N}
	l.Total = l.PG + e.cfg.ValueCoef*l.Value + ec*l.Entropy
	sums.kl, sums.clipped = sums.kl/N, sums.clipped/N
	err = e.finishWith(0, true, 0, l.Total) // the norm and clip scale; the loss is the host's
	if err == nil {
		err = enginekit.CheckLoss(u, l.Total)
	}
	norm := e.finHost[finNorm]
	if err == nil {
		err = enginekit.CheckGradNorm(u, norm)
	}
	return l, sums, norm, err
}

// ppoWeights launches simdrl_ppo_weights over the minibatch of n episodes
// just replayed (their numbers in ppoMB), with its advantages' mean and
// scale, its steps and the update's entropy coefficient.
func (e *engine) ppoWeights(n int, set trainer.PPOSettings, mean, scale, steps, ec float64) error {
	BT := e.B * e.T
	a := e.a.reset()
	a.i32("S", n).i32("T", e.T).ptr("mb", e.ppoMB).ptr("old_logp", e.ppoOld).ptr("old_val", e.ppoOld.at(BT)).ptr("adv", e.ppoOld.at(2*BT)).
		ptr("ret", e.ppoOld.at(3*BT)).ptr("end", e.ppoEnd).f64("adv_mean", mean).f64("adv_scale", scale).f64("steps", steps).
		f64("clip", set.ClipCoef).flag("clip_v", set.ClipVLoss).f64("value_coef", e.cfg.ValueCoef).f64("entropy_coef", ec).
		ptr("logpa", e.logpa).ptr("val", e.val).ptr("ent", e.ent).ptr("dlogp", e.dlogp).ptr("dent", e.dent).ptr("dval", e.dval).ptr("sums", e.ppoSums)
	return e.launch("simdrl_ppo_weights", [3]int{ppoWeightBlocks(n), 1, 1}, [3]int{ppoWeightThreads, 1, 1}, 0, a)
}

// ppoBuffers are the device buffers of -estimator ppo (none without it): the
// stored rollout's old log-probabilities, values, advantages and returns
// (B×T each, episode-major, in that order), ends, a minibatch's episodes and
// simdrl_ppo_weights's block sums.
func (e *engine) ppoBuffers() []buffer {
	if e.cfg.Estimator != trainer.EstimatorPPO {
		return nil
	}
	B, T := e.B, e.T
	return []buffer{{&e.ppoOld, 4 * 4 * B * T}, {&e.ppoEnd, 4 * B}, {&e.ppoMB, 4 * B}, {&e.ppoSums, 8 * ppoSumWords * ppoWeightBlocks(B)}}
}

// ppoSave keeps the model and Adam's state before the update's first step.
func (e *engine) ppoSave() error {
	s := &e.ppo
	e.ppoSavedStep = e.adamStep
	err := download(s.params, e.P)
	if err == nil {
		err = download(s.m, e.m)
	}
	if err == nil {
		err = download(s.v, e.v)
	}
	return err
}

// ppoRestore puts back what ppoSave kept: a failed or interrupted update
// leaves the model as it found it.
func (e *engine) ppoRestore() error {
	s := &e.ppo
	e.adamStep = e.ppoSavedStep
	err := e.setParams(s.params)
	if err == nil {
		err = upload(e.m, s.m)
	}
	if err == nil {
		err = upload(e.v, s.v)
	}
	if err == nil {
		err = e.sync()
	}
	return err
}

// allocatePPO allocates the stored rollout's host buffers (ppoHostPlan) and
// the Env that replays its programs, for -estimator ppo only.
func (e *engine) allocatePPO() {
	plan := ppoHostPlan(e.cfg, e.l, &e.ppo)
	for _, b := range plan {
		b.make()
	}
	if plan != nil {
		e.ppoEnv = task.NewEnv(e.task, e.B)
	}
}
