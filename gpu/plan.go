package gpu

import "fmt"

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

// carve mirrors simdrl_carve (kernels/common.cuh): consecutive regions of
// shared memory, each starting on a 16-byte boundary; it returns the bytes
// taken in all.
func carve(regions ...int) int {
	off := 0
	for _, b := range regions {
		off = (off + b + 15) &^ 15
	}
	return off
}

// stride4 mirrors simdrl_stride4: a row of n floats padded to a multiple of 4.
func stride4(n int) int { return (n + 3) &^ 3 }

// maxBlockThreads mirrors SIMDRL_MAX_BLOCK_THREADS, the launch bound of the
// rollout and backward kernels.
const maxBlockThreads = 512

// rolloutSmem is the rollout kernel's dynamic shared memory (rollout.cu),
// region by region in the kernel's order.
func rolloutSmem(E, d, V int, smemW bool) int {
	w := 0
	if smemW {
		w = d * 3 * d
	}
	V1, dS := V+1, stride4(d)
	return carve(8*E*5, 4*E*6, 4*E, 4*w, 4*d*V1, 4*V1, 4*3*d, 4*E*dS, 4*E*dS, 4*E*V1, 4*E*V, 4*E*V, 4*E*V, 4*E)
}

// backwardSmem is the backward kernel's dynamic shared memory (backward.cu).
func backwardSmem(E, d, V int, smemW bool) int {
	w := 0
	if smemW {
		w = 3 * d * d
	}
	V1 := V + 1
	return carve(4*w, 4*V1*d, 4*E*d, 4*E*d, 4*E*stride4(3*d), 4*E*V1, 4*E*V, 4*E)
}

// planTiles picks the largest tile that still gives every multiprocessor a
// block (small batches are latency-bound: more, smaller blocks), stages W_hh
// in shared memory when the tile has at least 8 episodes and it fits (small
// tiles read it through L1 instead), and checks the shared memory limit.
func planTiles(B, d, V, sms, smemLimit int, backward bool) (tilePlan, error) {
	size := rolloutSmem
	if backward {
		size = backwardSmem
	}
	DP := (d + 31) / 32 * 32
	var fallback *tilePlan
	for _, c := range tileChoices {
		p := tilePlan{EPT: c[0], G: c[1], E: c[0] * c[1], DP: DP}
		if DP*p.G > maxBlockThreads {
			continue
		}
		p.Blocks = (B + p.E - 1) / p.E
		p.SmemW = p.E >= 8 && size(p.E, d, V, true) <= smemLimit
		p.Smem = size(p.E, d, V, p.SmemW)
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
			return tilePlan{}, fmt.Errorf("gpu: -hidden %d is more than the %d hidden units a block of the CUDA kernels handles", d, maxBlockThreads)
		}
		return tilePlan{}, fmt.Errorf("gpu: -hidden %d needs more shared memory per block than this GPU's %d bytes", d, smemLimit)
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

func ceilDiv(a, b int) int { return (a + b - 1) / b }
