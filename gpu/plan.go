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
const nStats = 5

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
	var fallback *tilePlan
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
		q := p
		fallback = &q
	}
	if fallback == nil {
		if DP > maxBlockThreads {
			return tilePlan{}, fmt.Errorf("gpu: a hidden size of %d is more than the %d hidden units a block of the CUDA kernels handles", d, maxBlockThreads)
		}
		return tilePlan{}, fmt.Errorf("gpu: a hidden size of %d needs more shared memory per block than this GPU's %d bytes", d, smemLimit)
	}
	return *fallback, nil
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
// (training, evaluations, explanations): its per-episode buffers are sized
// for it.
func maxEpisodes(cfg trainer.Config) int {
	return max(cfg.Batch, cfg.EvalBatch, cfg.FinalEpisodes, cfg.Explain, 1)
}

// hostMemory estimates the host memory a run of cfg on the GPU engine takes
// for a model of layout l, in shares by the Config field that drives each:
// the engine's copy of the parameters and the moments a checkpoint reads
// back; per episode of its largest rollout the instance records and the
// tokens and outcomes read back; per replayed episode of a part the
// teacher-forced tokens and loss weights; and the trainer's own buffers
// (enginekit.TrainerMemory).
func hostMemory(cfg trainer.Config, t task.Task, l *gru.Layout) enginekit.Memory {
	m := enginekit.TrainerMemory(enginekit.RunSizes{Hidden: cfg.Hidden, Batch: cfg.Batch, Steps: cfg.Steps, Replay: cfg.Replay,
		Explain: cfg.Explain, FinalEpisodes: cfg.FinalEpisodes, Updates: cfg.Updates, EvalEvery: cfg.EvalEvery,
		ItemFocus: cfg.ItemFocus, StopAt: cfg.StopAt}, t)
	T := float64(cfg.Steps)
	m["hidden"] += 3 * 4 * float64(l.Size)
	knob, n := "batch", cfg.Batch
	for _, k := range []struct {
		name string
		n    int
	}{{"eval_batch", cfg.EvalBatch}, {"final_episodes", cfg.FinalEpisodes}, {"explain", cfg.Explain}} {
		if k.n > n {
			knob, n = k.name, k.n
		}
	}
	// records, then the tokens (T+1 a episode) and the programs (T) of a
	// greedy rollout or the batch's record, its outcomes and solved flags
	m[knob] += float64(maxEpisodes(cfg)) * (4*record.Words + 4*(T+1) + 4*T + 16 + 1)
	if cfg.Replay > 0 {
		m["replay"] += float64(min(cfg.Batch, cfg.Replay)) * (4*(T+1) + 3*4*T + 8)
	}
	return m
}
