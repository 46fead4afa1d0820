package kernels

// The AVX2+FMA kernels of the non-GEMM family (GRU step, policy head, Adam,
// sum of squares) are generated with avo by asm/elementwise.
//go:generate sh -c "cd ../asm && go run ./elementwise -out ../kernels/elementwise_amd64.s -stubs ../kernels/elementwise_amd64_stubs.go -pkg kernels"

// Their 16-lane ZMM forms (the same instructions per lane, for the CPUs
// where 512-bit FMAs are full rate, and Zen 4) come from the same generator
// with -zmm.
//go:generate sh -c "cd ../asm && go run ./elementwise -zmm -out ../kernels/elementwise_zmm_amd64.s -stubs ../kernels/elementwise_zmm_amd64_stubs.go -pkg kernels"
