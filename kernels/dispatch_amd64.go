//go:build !purego

package kernels

import "github.com/klauspost/cpuid/v2"

// accelerate returns the AVX2+FMA set when the CPU (and OS) support it.
// Each kernel family's *_amd64.go file contributes its assembly through a
// useAVX2… function; a family without one keeps its generic twin.
func accelerate() *implementation {
	if !cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3) {
		return nil
	}
	s := generic
	s.name = "avx2"
	useAVX2(&s)
	return &s
}
