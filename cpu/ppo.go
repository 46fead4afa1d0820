package cpu

import (
	"math"
	"unsafe"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// PPO (-estimator ppo) as CleanRL's ppo.py, over recurrent episodes as its
// LSTM variant does (minibatches of whole episodes). An update:
//
//  1. rolls the batch out by sampling (trainJob, which stores each episode
//     here instead of weighting its loss): instance, actions, their
//     log-probabilities, values, rewards, end, truncated or terminated;
//
//  2. computes each episode's GAE(λ) advantages and returns (gae);
//
//  3. for each of Epochs epochs, shuffles the episodes (a counter-based
//     permutation of the update and epoch) into Minibatches minibatches,
//     and for each replays the minibatch's stored actions through the GRU
//     (gru.Teacher) and takes one Adam step on the mean over its steps of
//
//     pg_t  = max(−A_t·r_t, −A_t·clip(r_t, 1−ε, 1+ε)),  r_t = π(a_t)/π_old(a_t)
//     v_t   = ½·max((v − G)², (v_old + clip(v − v_old, −ε, ε) − G)²)   (½·(v − G)² without ClipVLoss)
//     loss  = pg + ValueCoef·v − EntropyCoef·entropy
//
//     with A normalised over the minibatch's steps (NormAdv). Steps after an
//     episode's end are not in the loss.
//
// Chunks stay the unit of arithmetic: a minibatch is cut into chunks of the
// engine's chunk size and their gradients summed in chunk order, so the
// result is the same for any -threads. If the update fails or is interrupted
// after its first Adam step, the parameters and Adam's state are restored
// to their values before it, so that the update is redone whole (-resume).
type ppo struct {
	set  trainer.PPOSettings
	B, T int
	// the stored rollout: per episode, and per step at b*T + t
	tasks       []task.Instance
	end         []int32
	trunc       []bool
	act         []int32
	logp, value []float32
	reward      []float64
	adv, ret    []float32
	perm        []int32
	// the minibatch being trained: its episodes (a window of perm), its
	// steps and its advantages' mean and standard deviation
	mb                []int32
	steps             float64
	advMean, advScale float64
	// the model and Adam's state before the update (restore)
	params, m, v []float32
	optSteps     int
	diag         trainer.Diagnostics
}

func newPPO(cfg trainer.Config, size int) *ppo {
	B, T := cfg.Batch, cfg.Steps
	return &ppo{set: cfg.PPO(), B: B, T: T,
		tasks: make([]task.Instance, B), end: make([]int32, B), trunc: make([]bool, B), act: make([]int32, B*T),
		logp: make([]float32, B*T), value: make([]float32, B*T), reward: make([]float64, B*T),
		adv: make([]float32, B*T), ret: make([]float32, B*T), perm: make([]int32, B),
		params: make([]float32, size), m: make([]float32, size), v: make([]float32, size)}
}

// ppoBatch is the episodes cfg's PPO stores: its batch, or 0 without -estimator ppo.
func ppoBatch(cfg trainer.Config) int {
	if cfg.Estimator != trainer.EstimatorPPO {
		return 0
	}
	return cfg.Batch
}

// ppoBuffers are newPPO's buffers (plan.buffers), for B stored episodes of
// T steps and a model of size parameters; none when B is 0.
func ppoBuffers(B, T, size int) []plannedBuffer {
	if B == 0 {
		return nil
	}
	b, bt, n := float64(B), float64(B*T), float64(size)
	return []plannedBuffer{
		{"ppo instances", b, float64(unsafe.Sizeof(task.Instance{})), 1, "batch", false},
		{"ppo ends, truncated flags, order", b, 4 + 1 + 4, 1, "batch", false},
		{"ppo actions, log-probabilities, values", bt, 4, 3, "batch", false},
		{"ppo rewards", bt, 8, 1, "batch", false},
		{"ppo advantages and returns", bt, 4, 2, "batch", false},
		{"ppo saved params, m and v", n, 4, 3, "hidden", false},
	}
}

// store keeps the chunk's n episodes, the batch's first..first+n−1, just
// rolled out on w, with their advantages and returns. An episode that runs
// past the rollout's last step is cut by it: truncated.
func (p *ppo) store(w *worker, first, n int) {
	T := p.T
	for b := 0; b < n; b++ {
		e := first + b
		p.tasks[e] = w.tasks[b]
		end := int(w.steps.end[b])
		p.end[e] = int32(end)
		p.trunc[e] = !w.steps.done[end*n+b] || w.steps.trunc[end*n+b]
		for t := 0; t < T; t++ {
			i := e*T + t
			p.act[i], p.logp[i], p.value[i], p.reward[i] = w.ws.Action(b, t), w.ws.Logp(b, t), w.ws.Value(b, t), w.steps.reward[t*n+b]
		}
		s := e * T
		gae(p.reward[s:s+T], p.value[s:s+T], end, p.trunc[e], p.set.Gamma, p.set.Lambda, p.adv[s:s+T], p.ret[s:s+T])
	}
}

// gae and ppoStep are enginekit's, shared with the GPU engine (gpu/ppo.go).
var (
	gae     = enginekit.GAE
	ppoStep = enginekit.PPOStep
)

// explainedVariance is 1 − Var(G − v)/Var(G) over the rollout's steps up
// to each episode's end (enginekit.ExplainedVariance).
func (p *ppo) explainedVariance() float64 {
	return enginekit.ExplainedVariance(p.ret, p.value, p.end, p.T)
}

// shuffle writes epoch's order of the episodes into perm (enginekit.PPOShuffle).
func (p *ppo) shuffle(key rng.Key, update, epoch int) {
	enginekit.PPOShuffle(p.perm, key, update, epoch)
}

// start makes mb the minibatch: its steps, and the mean and 1/(std + 1e-8)
// of its advantages, or 0 and 1 without NormAdv (enginekit.PPOAdvantages).
func (p *ppo) start(mb []int32) {
	p.mb = mb
	p.steps, p.advMean, p.advScale = enginekit.PPOAdvantages(p.adv, p.end, p.T, mb, p.set.NormAdv)
}

// ppoSums are a chunk's sums over its steps, merged in chunk order.
type ppoSums struct{ pg, value, entropy, kl, clipped float64 }

// weigh writes the loss weights of the chunk of the minibatch's episodes
// first..first+n−1, replayed on ws, and returns its sums.
func (p *ppo) weigh(ws *gru.Workspace, first, n int, valueCoef, entropyCoef float64) ppoSums {
	T, N := p.T, p.steps
	var s ppoSums
	for b := 0; b < n; b++ {
		e := int(p.mb[first+b])
		for t := 0; t < T; t++ {
			i := t*n + b
			if t > int(p.end[e]) {
				ws.DLogp[i], ws.DValue[i], ws.DEnt[i] = 0, 0, 0
				continue
			}
			k := e*T + t
			logp, old := float64(ws.Logp(b, t)), float64(p.logp[k])
			adv := (float64(p.adv[k]) - p.advMean) * p.advScale
			pg, dpg, vl, dv := ppoStep(logp, old, adv, float64(ws.Value(b, t)), float64(p.value[k]), float64(p.ret[k]), p.set.ClipCoef, p.set.ClipVLoss)
			ent := float64(ws.Entropy(b, t))
			s.pg += pg
			s.value += vl
			s.entropy += ent
			lr := logp - old
			s.kl += math.Expm1(lr) - lr
			if math.Abs(math.Expm1(lr)) > p.set.ClipCoef {
				s.clipped++
			}
			ws.DLogp[i] = float32(dpg / N)
			ws.DValue[i] = float32(valueCoef * dv / N)
			ws.DEnt[i] = float32(-entropyCoef / N)
		}
	}
	return s
}

// ppoJob is one minibatch's pass: replay, weigh, backpropagate.
type ppoJob struct {
	e           *Engine
	p           *ppo
	entropyCoef float64
	sums        ppoSums // merged in chunk order
}

func (j *ppoJob) work(w *worker, r *result) {
	e, p, n, T := j.e, j.p, r.n, j.p.T
	w.ws.Reset(n)
	for b := 0; b < n; b++ {
		ep := int(p.mb[r.first+b])
		w.tasks[b] = p.tasks[ep]
		w.setContext(b, &w.tasks[b])
		for t := 0; t < T; t++ {
			w.ws.SetAction(b, t, p.act[ep*T+t])
		}
	}
	if !w.rollout(e.model, gru.Teacher, gru.Stream{}, true) {
		r.cut = true
		return
	}
	s := p.weigh(w.ws, r.first, n, e.cfg.ValueCoef, j.entropyCoef)
	r.loss = trainer.LossTerms{PG: s.pg, Value: s.value, Entropy: s.entropy}
	r.rsum, r.ppoKL, r.ppoClipped = 0, s.kl, s.clipped
	clear(r.grad)
	r.table.Clear()
	r.cut = !w.ws.BackwardUntil(e.model.params, e.model.derived, r.grad, r.table.Buffer(), w.interrupt)
}

func (j *ppoJob) merge(r *result) {
	j.sums.pg += r.loss.PG
	j.sums.value += r.loss.Value
	j.sums.entropy += r.loss.Entropy
	j.sums.kl += r.ppoKL
	j.sums.clipped += r.ppoClipped
	kernels.Add(j.e.grad, r.grad)
	kernels.Add(j.e.table.Buffer(), r.table.Buffer())
}

// updatePPO is Update for -estimator ppo.
func (e *Engine) updatePPO(p trainer.Plan, j *trainJob) (trainer.UpdateStats, error) {
	pp, u := e.ppo, p.Update
	st := trainer.UpdateStats{Update: u, Level: j.level}
	if err := e.pool.run(j, e.cfg.Batch); err != nil {
		return st, err
	}
	st.MeanReward, st.SolveRate = j.rewardSum/float64(j.batch), float64(j.solved)/float64(j.batch)
	pp.save(e)
	E, M := pp.set.Epochs, pp.set.Minibatches
	S := pp.B / M
	var total ppoSums
	var loss trainer.LossTerms
	for epoch := 0; epoch < E; epoch++ {
		pp.shuffle(e.key, u, epoch)
		for mb := 0; mb < M; mb++ {
			pp.start(pp.perm[mb*S : (mb+1)*S])
			job := &e.ppoJob
			*job = ppoJob{e: e, p: pp, entropyCoef: p.Entropy}
			clear(e.grad)
			e.table.Clear()
			if err := e.pool.run(job, S); err != nil {
				pp.restore(e)
				return st, err
			}
			e.table.Apply(e.model.params, e.grad)
			s, N := job.sums, pp.steps
			l := trainer.LossTerms{PG: s.pg / N, Value: s.value / N, Entropy: -s.entropy / N}
			l.Total = l.PG + e.cfg.ValueCoef*l.Value + p.Entropy*l.Entropy
			if err := enginekit.CheckLoss(u, l.Total); err != nil {
				pp.restore(e)
				return st, err
			}
			norm := gradNorm(e.grad)
			if err := enginekit.CheckGradNorm(u, norm); err != nil {
				pp.restore(e)
				return st, err
			}
			_ = e.model.set(func(p []float32) error { e.opt.step(p, e.grad, norm); return nil })
			addLoss(&loss, l)
			st.GradNorm += norm
			total.kl += s.kl / N
			total.clipped += s.clipped / N
		}
	}
	k := float64(E * M)
	st.Loss = trainer.LossTerms{PG: loss.PG / k, Value: loss.Value / k, Entropy: loss.Entropy / k, Total: loss.Total / k}
	st.GradNorm /= k
	pp.diag = trainer.Diagnostics{ApproxKL: total.kl / k, ClipFraction: total.clipped / k, ExplainedVariance: pp.explainedVariance(), Steps: E * M}
	st.Diagnostics = &pp.diag
	return st, nil
}

// save keeps the model and Adam's state before the update's first step.
func (p *ppo) save(e *Engine) {
	copy(p.params, e.model.params)
	copy(p.m, e.opt.m)
	copy(p.v, e.opt.v)
	p.optSteps = e.opt.steps
}

// restore puts back what save kept: a failed or interrupted update leaves
// the model as it found it.
func (p *ppo) restore(e *Engine) {
	_ = e.model.set(func(params []float32) error { copy(params, p.params); return nil })
	copy(e.opt.m, p.m)
	copy(e.opt.v, p.v)
	e.opt.steps = p.optSteps
}
