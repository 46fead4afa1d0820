package kernels

// The AVX2+FMA and AVX-512 GEMM kernels (gemm_amd64.s, gemm_amd64_stubs.go)
// are generated with avo by the program in ../asm/gemm; regenerate with
// `go generate ./kernels/`.

//go:generate sh -c "cd ../asm && go run ./gemm -out ../kernels/gemm_amd64.s -stubs ../kernels/gemm_amd64_stubs.go -pkg kernels"
