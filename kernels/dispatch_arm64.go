//go:build !purego

package kernels

import "github.com/klauspost/cpuid/v2"

// accelerate returns the NEON set (ASIMD is part of every ARMv8-A core; the
// check keeps the rule that dispatch asks the CPU).
func accelerate() *implementation {
	if !cpuid.CPU.Supports(cpuid.ASIMD) {
		return nil
	}
	s := generic
	s.name = "neon"
	useNEON(&s)
	return &s
}

// asmSets lists the assembly sets this CPU supports, for the tests.
func asmSets() []*implementation {
	if s := accelerate(); s != nil {
		return []*implementation{s}
	}
	return nil
}
