package kernels

// The AVX2+FMA kernels of the non-GEMM family (GRU step, policy head, Adam,
// sum of squares) are generated with avo by asm/elementwise.
//go:generate sh -c "cd ../asm && go run ./elementwise -out ../kernels/elementwise_amd64.s -stubs ../kernels/elementwise_amd64_stubs.go -pkg kernels"
