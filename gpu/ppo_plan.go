package gpu

import (
	"unsafe"

	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// ppoStore is the host's side of -estimator ppo on the GPU (ppo.go): the
// update's stored rollout, read back once after its sampling rollout, a
// minibatch's block sums, and the model and Adam's state before the update
// (restored when it fails or is interrupted). Per step slices of the
// stored rollout are episode-major (e*T + t, as cpu/ppo.go, enginekit's PPO
// functions and simdrl_ppo_weights index them).
type ppoStore struct {
	records     []int32 // the batch's instance records, record.Words an episode
	tokens      []int32 // the batch's tokens as the rollout wrote them, (T+1)×B step-major
	end         []int32 // per episode: the step that ended it, or T−1
	trunc       []bool  // per episode: cut (budget, or the rollout's end) rather than terminated
	logp, value []float32
	reward      []float64
	adv, ret    []float32
	perm        []int32
	stepMajor   []float32 // a T×B read-back before it is stored episode-major
	// the host replay of the task's Env over the stored programs: one
	// step's transition of the B episodes, and their instances
	instances []task.Instance
	obs       []int32
	stepRew   []float64
	done, cut []bool
	// a minibatch's simdrl_ppo_weights block sums, read back
	sums []float64
	// before the update
	params, m, v []float32
}

// simdrl_ppo_weights's block (SIMDRL_PPO_THREADS: a thread a minibatch
// episode) and the sums each block writes (SIMDRL_PPO_SUMS, simdrl_ppo_sums).
const (
	ppoWeightThreads = 64
	ppoSumWords      = 5
)

// ppoWeightBlocks is simdrl_ppo_weights's blocks for a minibatch of n.
func ppoWeightBlocks(n int) int { return ceilDiv(n, ppoWeightThreads) }

// ppoHostPlan lists ppoStore's buffers for cfg (none without -estimator
// ppo) as hostPlan lists the engine's; make fills s. hostMemory counts them.
func ppoHostPlan(cfg trainer.Config, l *gru.Layout, s *ppoStore) []hostBuffer {
	if cfg.Estimator != trainer.EstimatorPPO {
		return nil
	}
	N, T, B := l.Size, cfg.Steps, cfg.Batch
	S := B / cfg.PPO().Minibatches
	var plan []hostBuffer
	knob := "batch"
	add := func(field string, count, size int, make func()) {
		plan = append(plan, hostBuffer{field, float64(count) * float64(size), knob, make})
	}
	f32 := func(p *[]float32, field string, count int) {
		add(field, count, 4, func() { *p = make([]float32, count) })
	}
	i32 := func(p *[]int32, field string, count int) { add(field, count, 4, func() { *p = make([]int32, count) }) }
	bools := func(p *[]bool, field string, count int) { add(field, count, 1, func() { *p = make([]bool, count) }) }
	f64 := func(p *[]float64, field string, count int) {
		add(field, count, 8, func() { *p = make([]float64, count) })
	}
	i32(&s.records, "records", record.Words*B)
	i32(&s.tokens, "tokens", (T+1)*B)
	i32(&s.end, "end", B)
	bools(&s.trunc, "trunc", B)
	f32(&s.logp, "logp", T*B)
	f32(&s.value, "value", T*B)
	f64(&s.reward, "reward", T*B)
	f32(&s.adv, "adv", T*B)
	f32(&s.ret, "ret", T*B)
	i32(&s.perm, "perm", B)
	f32(&s.stepMajor, "stepMajor", T*B)
	add("instances", B, int(unsafe.Sizeof(task.Instance{})), func() { s.instances = make([]task.Instance, B) })
	i32(&s.obs, "obs", B)
	f64(&s.stepRew, "stepRew", B)
	bools(&s.done, "done", B)
	bools(&s.cut, "cut", B)
	f64(&s.sums, "sums", ppoSumWords*ppoWeightBlocks(S))
	knob = "hidden"
	f32(&s.params, "params", N)
	f32(&s.m, "m", N)
	f32(&s.v, "v", N)
	return plan
}
