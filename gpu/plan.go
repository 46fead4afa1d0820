package gpu

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/gpu/internal/abi"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// tilePlan is how the rollout or backward kernel is launched over a batch:
// blocks of E = EPT·G episodes, blockDim (DP, G) with DP = d rounded up to a
// warp, and Smem bytes of dynamic shared memory.
type tilePlan struct {
	EPT, G, E, DP int
	Blocks        int
	Smem          int
	SmemW         bool // W_hh staged in shared memory
}

// The (EPT, G) choices, largest tile first; kernels exist for EPT 1, 2, 4, 8.
var tileChoices = [][2]int{{8, 4}, {8, 2}, {4, 2}, {2, 2}, {1, 2}, {1, 1}}

// stride4 mirrors simdrl_stride4: a row of n floats padded to a multiple of 4.
func stride4(n int) int { return (n + 3) &^ 3 }

// maxBlockThreads mirrors SIMDRL_MAX_BLOCK_THREADS (kernels/common.cuh), the
// launch bound of the rollout and backward kernels (up to 128 registers a
// thread).
const maxBlockThreads = 512

// tileOverride is SIMDRL_GPU_TILE ("EPTxG", optionally ":l1" to read W_hh
// through the L1 cache instead of staging it in shared memory): a tuning knob
// that forces one tile on every rollout and backward launch.
var tileOverride = os.Getenv("SIMDRL_GPU_TILE")

func parseTile(s string) (ept, g int, l1 bool, err error) {
	spec, mem, _ := strings.Cut(s, ":")
	a, b, ok := strings.Cut(spec, "x")
	ept, err1 := strconv.Atoi(a)
	g, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || (ept != 1 && ept != 2 && ept != 4 && ept != 8) || g < 1 || (mem != "" && mem != "l1") {
		return 0, 0, false, fmt.Errorf("gpu: SIMDRL_GPU_TILE=%q: want EPTxG with EPT 1, 2, 4 or 8 and G ≥ 1, optionally followed by :l1", s)
	}
	return ept, g, mem == "l1", nil
}

// nStats mirrors SIMDRL_NSTATS (kernels/common.cuh): the float64 statistics
// of an episode.
const nStats = 6

// calcSlotDoubles mirrors SIMDRL_CALC_SLOT_DOUBLES (kernels/calc.cuh): an
// episode's machine in the rollout's shared memory when it observes.
const calcSlotDoubles = 16

// smemDim gives the value of each factor of the ABI table's shared-memory
// regions (gpu/internal/abi): the kernels' variables of the same names.
func smemDim(E, d, V int) func(string) int {
	return func(f string) int {
		switch f {
		case "E":
			return E
		case "d":
			return d
		case "V":
			return V
		case "V1":
			return V + 1
		case "G3":
			return 3 * d
		case "dS":
			return stride4(d)
		case "G3S":
			return stride4(3 * d)
		case "SIMDRL_NSTATS":
			return nStats
		case "SIMDRL_TASK_WORDS":
			return record.Words
		case "SIMDRL_CALC_SLOT_DOUBLES":
			return calcSlotDoubles
		}
		panic("gpu: shared-memory factor " + f + " unknown to plan.go's smemDim")
	}
}

// kernelSmem is the dynamic shared memory of kernel's carving (the ABI
// table's regions, as args.cuh's SIMDRL_*_SMEM declares them) for a tile of
// E episodes with O observations; smemW is use_smem_w.
func kernelSmem(kernel string, E, d, V, O int, smemW bool) int {
	return abi.Of(kernel).SmemBytes(smemDim(E, d, V), func(cond string) bool {
		switch cond {
		case "use_smem_w":
			return smemW
		case "O":
			return O > 0
		}
		panic("gpu: shared-memory condition " + cond + " unknown to plan.go's kernelSmem")
	})
}

// rolloutSmem is the rollout kernel's dynamic shared memory.
func rolloutSmem(E, d, V, O int, smemW bool) int {
	return kernelSmem("simdrl_rollout_e1", E, d, V, O, smemW)
}

// backwardSmem is the backward kernel's dynamic shared memory.
func backwardSmem(E, d, V, O int, smemW bool) int {
	return kernelSmem("simdrl_backward_e1", E, d, V, O, smemW)
}

// planTiles picks the largest tile that still gives every multiprocessor a
// block (small batches are latency-bound: more, smaller blocks), stages W_hh
// in shared memory when the tile has at least 8 episodes and it fits (small
// tiles read it through L1 instead), and checks the shared memory limit.
func planTiles(B, d, V, O, sms, smemLimit int, backward bool) (tilePlan, error) {
	size := rolloutSmem
	if backward {
		size = backwardSmem
	}
	DP := (d + 31) / 32 * 32
	if tileOverride != "" {
		ept, g, l1, err := parseTile(tileOverride)
		if err != nil {
			return tilePlan{}, err
		}
		p := tilePlan{EPT: ept, G: g, E: ept * g, DP: DP, SmemW: !l1}
		p.Blocks = (B + p.E - 1) / p.E
		p.Smem = size(p.E, d, V, O, p.SmemW)
		if DP*g > maxBlockThreads || p.Smem > smemLimit {
			return tilePlan{}, fmt.Errorf("gpu: SIMDRL_GPU_TILE=%s does not fit a hidden size of %d (%d threads, %d bytes of shared memory)", tileOverride, d, DP*g, p.Smem)
		}
		return p, nil
	}
	var fallback tilePlan // a value, not a pointer to the loop's: no allocation a launch
	found := false
	for _, c := range tileChoices {
		p := tilePlan{EPT: c[0], G: c[1], E: c[0] * c[1], DP: DP}
		if DP*p.G > maxBlockThreads {
			continue
		}
		p.Blocks = (B + p.E - 1) / p.E
		p.SmemW = p.E >= 8 && size(p.E, d, V, O, true) <= smemLimit
		p.Smem = size(p.E, d, V, O, p.SmemW)
		if p.Smem > smemLimit {
			continue
		}
		if p.Blocks >= sms {
			return p, nil
		}
		fallback, found = p, true
	}
	if !found {
		if DP > maxBlockThreads {
			return tilePlan{}, fmt.Errorf("gpu: a hidden size of %d is more than the %d hidden units a block of the CUDA kernels handles", d, maxBlockThreads)
		}
		return tilePlan{}, fmt.Errorf("gpu: a hidden size of %d needs more shared memory per block than this GPU's %d bytes", d, smemLimit)
	}
	return fallback, nil
}

// slabPlan splits R rows into S slabs of slab rows (a multiple of 16) so that
// tiles·S blocks keep every multiprocessor busy a few times over.
func slabPlan(R, tiles, sms int) (S, slab int) {
	S = max(1, (4*sms+tiles-1)/tiles)
	S = min(S, max(1, (R+15)/16), 1024)
	per := (R + S - 1) / S
	slab = (per + 15) / 16 * 16
	S = (R + slab - 1) / slab
	return max(S, 1), slab
}

// slabCap is the most slabs slabPlan gives any count of rows up to R: its
// first guess S₀ bounds the count it returns (the slabs of slab ≥ R/S₀ rows
// are at most S₀), and S₀ grows with R.
func slabCap(R, tiles, sms int) int {
	return min(max(1, (4*sms+tiles-1)/tiles), max(1, (R+15)/16), 1024)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// maxEpisodes is the most episodes of any rollout an engine of cfg plays
// (training, periodic and final evaluations, explanations): its
// per-episode buffers are sized for it. The periodic evaluations' count
// only when there are any (-eval-every > 0), as on the CPU; a larger
// evaluation plays in parts (engine.evaluate).
func maxEpisodes(cfg trainer.Config) int {
	return max(cfg.Batch, periodicEpisodes(cfg), cfg.FinalEpisodes, cfg.Explain, 1)
}

// periodicEpisodes is the episodes of a periodic evaluation of cfg's (a
// level's, each its own rollout), 0 without them.
func periodicEpisodes(cfg trainer.Config) int {
	if cfg.EvalEvery <= 0 {
		return 0
	}
	return cfg.EvalBatch
}

// hostBuffers is every host buffer of a GPU engine: newEngine allocates
// them once from hostPlan, and every call reuses them.
type hostBuffers struct {
	params, m, v []float32 // the parameters and Adam's moments read back (Engine.Params, Engine.Moments)
	records      []int32   // the instances of a rollout, record.Words each (hostRecords)
	tokens       []int32   // a rollout's tokens, T+1 an episode: read back, or a replayed part's uploaded
	programs     []int32   // a greedy rollout's actions, episode-major (greedyRollout)
	outcomes     []float64 // the batch's reward and correct flag an episode (engine.record)
	// a replayed part's (engine.replay), T an episode: the loss weights of
	// dlogp, the zero weights of dent and dval, the log-probabilities read
	// back; and each episode's steps in the loss
	lossWeights, zeroWeights, logpa []float32
	kept                            []int32
}

// hostBuffer is one buffer of a host plan: its field of hostBuffers, its
// bytes, the Config field (JSON name) that drives it, and make, which
// allocates it.
type hostBuffer struct {
	field string
	bytes float64
	knob  string
	make  func()
}

// hostPlan lists every host buffer of a GPU engine of cfg for a model of
// layout l, sized once: the parameters and moments; per episode of its
// largest rollout (maxEpisodes) the instance records, the tokens, a greedy
// rollout's programs and the batch's outcomes; per episode of a replayed
// part (at most the batch) its loss weights and read-backs. make fills h.
func hostPlan(cfg trainer.Config, l *gru.Layout, h *hostBuffers) []hostBuffer {
	N, T, n, B := l.Size, cfg.Steps, maxEpisodes(cfg), cfg.Batch
	knob := largestRollout(cfg)
	var plan []hostBuffer
	add := func(field string, count, size int, knob string, make func()) {
		plan = append(plan, hostBuffer{field, float64(count) * float64(size), knob, make})
	}
	f32 := func(p *[]float32, field string, count int, knob string) {
		add(field, count, 4, knob, func() { *p = make([]float32, count) })
	}
	i32 := func(p *[]int32, field string, count int, knob string) {
		add(field, count, 4, knob, func() { *p = make([]int32, count) })
	}
	f32(&h.params, "params", N, "hidden")
	f32(&h.m, "m", N, "hidden")
	f32(&h.v, "v", N, "hidden")
	i32(&h.records, "records", record.Words*n, knob)
	i32(&h.tokens, "tokens", (T+1)*n, knob)
	i32(&h.programs, "programs", T*n, knob)
	add("outcomes", 2*n, 8, knob, func() { h.outcomes = make([]float64, 2*n) })
	f32(&h.lossWeights, "lossWeights", T*B, "batch")
	f32(&h.zeroWeights, "zeroWeights", T*B, "batch")
	f32(&h.logpa, "logpa", T*B, "batch")
	i32(&h.kept, "kept", B, "batch")
	return plan
}

// largestRollout is the Config field (JSON name) of maxEpisodes' count.
func largestRollout(cfg trainer.Config) string {
	knob, n := "batch", cfg.Batch
	for _, k := range []struct {
		name string
		n    int
	}{{"eval_batch", periodicEpisodes(cfg)}, {"final_episodes", cfg.FinalEpisodes}, {"explain", cfg.Explain}} {
		if k.n > n {
			knob, n = k.name, k.n
		}
	}
	return knob
}

// runSizes is the counts of cfg that size the trainer's buffers.
func runSizes(cfg trainer.Config) enginekit.RunSizes {
	return enginekit.RunSizes{Hidden: cfg.Hidden, Batch: cfg.Batch, Steps: cfg.Steps, Replay: cfg.Replay,
		Explain: cfg.Explain, FinalEpisodes: cfg.FinalEpisodes, Updates: cfg.Updates, EvalEvery: cfg.EvalEvery,
		ItemFocus: cfg.ItemFocus, StopAt: cfg.StopAt}
}

// hostMemory estimates the host memory a run of cfg on the GPU engine takes
// for a model of layout l, in shares by the Config field that drives each:
// the engine's host buffers (hostPlan's bytes), PPO's stored rollout
// (ppoHostPlan's) and the trainer's own (enginekit.TrainerMemory).
func hostMemory(cfg trainer.Config, t task.Task, l *gru.Layout) enginekit.Memory {
	m := enginekit.TrainerMemory(runSizes(cfg), t)
	for _, b := range append(hostPlan(cfg, l, &hostBuffers{}), ppoHostPlan(cfg, l, &ppoStore{})...) {
		m[b.knob] += b.bytes
	}
	return m
}
