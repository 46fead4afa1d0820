// Package kernels holds the float32 numerical kernels that the model spends its
// time in: GEMM in the three forms the GRU needs, the fused GRU gate step and
// its backward, the policy head's log-softmax/entropy and its backward,
// sampling, Adam and reductions; and SgemmTNLive, TN over the live steps of
// k only, which gives SgemmTN's floats by keeping each set's k blocks
// (SgemmTNLiveRows: the same on operands stored as their live rows).
//
// Every kernel is a pure function on slices with explicit sizes and strides: no
// structs, no allocation. Each has a portable Go twin (the *Generic functions,
// the reference the assembly is tested against); at start-up the package picks
// the fastest implementation the CPU supports (see dispatch.go). The build tag
// `purego` or SIMDRL_KERNELS=generic forces the Go twins.
//
// # Dispatch rule
//
// On amd64 the choice is made per kernel family from what the CPU is, not
// only from its feature flags (dispatch_amd64.go: cpuFacts, zmmFullRate,
// zen4, planAVX512), because the same AVX-512 instruction set runs at two
// speeds: on Zen 4 (AMD family 25) a 512-bit FMA is double-pumped through
// the 256-bit pipes, while Zen 5 (AMD family 26 and later) and Intel's
// server cores (Skylake-SP through Granite Rapids) have two full-width
// 512-bit FMA units, twice the 256-bit rate. Double-pumped, a ZMM
// instruction still does twice a YMM one's work per slot of decode, rename
// and retire, so on Zen 4 the kernels bound by those run faster in ZMM too
// (the GRU forward, the policy head, NT M×288×96 and 18×288×96; the GRU
// backward and Adam lose nothing), but not the 19 heads (docs/performance.md,
// "Kernel forms"). Intel's client cores with
// AVX-512 (Ice Lake, Tiger Lake, Rocket Lake) issue 512-bit FMAs to one
// fused unit; they, and any CPU the rule does not name, were never
// measured and keep the AVX2 forms.
//
//	family              no AVX-512   AVX-512, unmeasured           Zen 4                         full rate
//	GEMM NN, TN         AVX2 4×24    ZMM 8×48 (n mod 16 ∉ 1..8)    ZMM 8×48 (n mod 16 ∉ 1..8)    ZMM 8×48 (n mod 16 ∉ 1..8)
//	GEMM NT, n = 19     AVX2 4×24    heads 5×(16+3), 2 YMM         heads 5×(16+3), 2 YMM         heads 5×(16+3), 1 ZMM
//	GEMM NT, other n    AVX2 4×24    AVX2 4×24                     ZMM 8×48                      ZMM 8×48
//	GRU step, Adam,     AVX2         AVX2                          ZMM, 16 lanes                 ZMM, 16 lanes
//	  tanh, exp
//	policy head         AVX2         AVX2                          ZMM, 2 rows × 8 lanes         ZMM, 2 rows × 8 lanes
//	sumSquares, add     AVX2         AVX2                          AVX2                          AVX2
//
// (heads: 16 columns by broadcasts, in two YMM or one ZMM vector per row,
// and 3 as dot products along k.) The elementwise kernels' ZMM forms
// (asm/elementwise -zmm) run the same instructions per lane as their AVX2
// forms, so they give the same bits: the GRU step (forward and backward),
// Adam, tanh and exp in 16 independent lanes, and the policy head's
// softmax, entropy and backward with two rows' 8-column chunks in the
// halves of one register, so that each row sums over its columns in the
// AVX2 order. sumSquares (a float64 reduction) and add (bound by memory)
// stay AVX2.
//
// The backend is "avx512" wherever the CPU
// has AVX512F+VL, whatever the plan: NT on the ZMM tile sums each element of C
// in the AVX2 tile's order (the same k blocks, the same FMA chain, then
// alpha, then beta), and the heads kernel's two forms sum alike, so the
// avx512 backend gives the same bits on every AVX-512 CPU (the elementwise
// kernels' two forms agree bit for bit too), and its NT results
// equal the avx2 backend's except for the 19 heads. Where the ZMM tile runs NN and
// TN with k > 256, results differ from the avx2 backend's in the last bits
// (its k blocks are up to 320 steps, the AVX2 tile's 256), as they already
// did (the model's NN dh = dgates·W_hh has k = 288).
//
// The model's gates GEMM h·W_hhᵀ runs as NN on a transposed copy of W_hh
// (gru.Derived.WHHT), which NN reads in place where NT packs Bᵀ on every
// call. For k = d ≤ 256 (one k block in both forms) NN on Bᵀ gives NT's
// floats bit for bit on every assembly set (TestGatesNNIsNT); the generic
// twins differ (NT sums in four chains, NN in one), so the generic backend's
// results changed with it, and a width above 256 runs its k blocks as NN
// does.
//
// Shapes are row-major. Sizes are checked before any work so that an assembly
// kernel never reads past a slice; a wrong size is a programming error and
// panics with a message naming the kernel and the argument.
//
// It imports nothing of the project (only the standard library and
// github.com/klauspost/cpuid/v2, which detects the CPU features); gru and the
// CPU engine call it, and cmd/simdrl checks SIMDRL_KERNELS through it.
package kernels
