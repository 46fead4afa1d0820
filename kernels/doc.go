// Package kernels holds the float32 numerical kernels that the model spends its
// time in: GEMM in the three forms the GRU needs, the fused GRU gate step and
// its backward, the policy head's log-softmax/entropy and its backward,
// sampling, Adam and reductions.
//
// Every kernel is a pure function on slices with explicit sizes and strides: no
// structs, no allocation. Each has a portable Go twin (the *Generic functions,
// the reference the assembly is tested against); at start-up the package picks
// the fastest implementation the CPU supports (see dispatch.go). The build tag
// `purego` or SIMDRL_KERNELS=generic forces the Go twins.
//
// Shapes are row-major. Sizes are checked before any work so that an assembly
// kernel never reads past a slice; a wrong size is a programming error and
// panics with a message naming the kernel and the argument.
//
// It imports nothing of the project (only the standard library and
// github.com/klauspost/cpuid/v2, which detects the CPU features); gru and the
// CPU engine call it, and cmd/simdrl checks SIMDRL_KERNELS through it.
package kernels
