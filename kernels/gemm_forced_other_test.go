//go:build purego || !amd64

package kernels

// gemmForcedSets: no test-only GEMM sets on this build (see the amd64 one).
func gemmForcedSets() []*implementation { return nil }
