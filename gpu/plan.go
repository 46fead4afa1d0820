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

// rolloutSmem is the rollout kernel's dynamic shared memory (rollout.cu).
func rolloutSmem(E, d, V int, smemW bool) int {
	w := 0
	if smemW {
		w = d * 3 * d
	}
	V1 := V + 1
	return E*5*8 + E*6*4 + E*4 + 4*(w+d*V1+V1+3*d+2*E*d+E*V1+E*V)
}

// backwardSmem is the backward kernel's dynamic shared memory (backward.cu).
func backwardSmem(E, d, V int, smemW bool) int {
	w := 0
	if smemW {
		w = 3 * d * d
	}
	V1 := V + 1
	return 4 * (w + V1*d + 2*E*d + E*3*d + E*V1 + E*V + E)
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
		if DP*p.G > 1024 {
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
