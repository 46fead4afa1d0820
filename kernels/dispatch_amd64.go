//go:build !purego

package kernels

import "github.com/klauspost/cpuid/v2"

// accelerate returns the best set this CPU (and OS) supports: AVX-512 where
// there is AVX512F+VL, else AVX2+FMA.
func accelerate() *implementation {
	sets := asmSets()
	if len(sets) == 0 {
		return nil
	}
	return sets[len(sets)-1]
}

// asmSets lists the assembly sets this CPU supports, slowest first, so that
// the tests can check each one, not only the one dispatch picks.
//   - "avx2": AVX2+FMA kernels. Each kernel family's *_amd64.go file
//     contributes its assembly through a useAVX2… function; a family
//     without one keeps its generic twin.
//   - "avx512": the avx2 set with the GEMMs that run the AVX-512 tile where
//     it wins (gemm_avx512_amd64.go).
func asmSets() []*implementation {
	if !cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3) {
		return nil
	}
	avx2 := generic
	avx2.name = "avx2"
	useAVX2(&avx2)
	sets := []*implementation{&avx2}
	if cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512VL) {
		avx512 := avx2
		avx512.name = "avx512"
		useAVX512GEMM(&avx512)
		sets = append(sets, &avx512)
	}
	return sets
}
