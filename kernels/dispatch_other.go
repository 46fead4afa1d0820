//go:build purego || !(amd64 || arm64)

package kernels

// accelerate: no assembly for this build; the generic twins run.
func accelerate() *implementation { return nil }

// asmSets: none.
func asmSets() []*implementation { return nil }
