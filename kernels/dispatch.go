package kernels

import (
	"fmt"
	"os"
	"strings"
)

// implementation is one complete set of kernels. Dispatch swaps the whole set
// at start-up, so a backend never runs half generic, half assembly by accident.
type implementation struct {
	name       string
	sgemmNN    func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	sgemmNT    func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	sgemmTN    func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	tnBlock    func(n, k int) int // the steps of k per block sgemmTN sums (pc += it), for SgemmTNLive
	gruForward func(rows, d int, table []float32, tokens []int32, gh, hPrev, hNext, act []float32)
	gruBack    func(rows, d int, tokens []int32, act, gh, hPrev, dhNext, dgh, dhPrev, dTable []float32)
	policyFwd  func(rows, cols int, logits []float32, ld int, logp, ent []float32)
	policyBack func(rows, cols int, logp []float32, actions []int32, dlogp, dent, dlogits []float32, ld int)
	adam       func(p, g, m, v []float32, gradScale, beta1, beta2, eps, stepSize, bc2Sqrt float32)
	sumSquares func(x []float32) float64
	tanh       func(dst, src []float32)
	exp        func(dst, src []float32)
	add        func(dst, src []float32)
}

var generic = implementation{
	name:       "generic",
	sgemmNN:    sgemmNNGeneric,
	sgemmNT:    sgemmNTGeneric,
	sgemmTN:    sgemmTNGeneric,
	tnBlock:    tnBlockGeneric,
	gruForward: gruForwardGeneric,
	gruBack:    gruBackwardGeneric,
	policyFwd:  policyForwardGeneric,
	policyBack: policyBackwardGeneric,
	adam:       adamGeneric,
	sumSquares: sumSquaresGeneric,
	tanh:       tanhGeneric,
	exp:        expGeneric,
	add:        addGeneric,
}

// accelerated is this CPU's assembly set, from the per-architecture
// accelerate() (dispatch_amd64.go, dispatch_arm64.go); nil on CPUs without
// the needed features, on other architectures and under the purego tag.
// Package variables are initialised before any init(), in dependency order,
// so impl is settled before anything can call a kernel.
var accelerated = accelerate()

// impl is the set in use, chosen once at start-up.
var impl = choose()

// EnvKernels is the environment variable that picks a backend: "generic"
// forces the Go twins, the name of another set this CPU supports picks that
// set (e.g. "avx2" on an AVX-512 machine, to reproduce an AVX2 run bit for
// bit); unset picks the fastest. CheckRequest reports a name that is not
// available.
const EnvKernels = "SIMDRL_KERNELS"

func choose() implementation {
	want := os.Getenv(EnvKernels)
	if want == "generic" {
		return generic
	}
	for _, s := range asmSets() {
		if s.name == want {
			return *s
		}
	}
	if accelerated != nil {
		return *accelerated
	}
	return generic
}

// CheckRequest returns an error when SIMDRL_KERNELS names a backend that
// this build and CPU do not offer (the fastest one runs instead).
func CheckRequest() error {
	want := os.Getenv(EnvKernels)
	if want == "" || want == Backend() {
		return nil
	}
	offer := []string{"generic"}
	for _, s := range asmSets() {
		offer = append(offer, s.name)
	}
	return fmt.Errorf("%s=%s is not available on this machine (it offers %s)", EnvKernels, want, strings.Join(offer, ", "))
}

// Backend names the kernel set in use: "generic", "avx2", "avx512" (the
// avx2 set with AVX-512 GEMMs, see gemm_avx512_amd64.go) or "neon".
func Backend() string { return impl.name }

func mustLen(kernel, arg string, got, need int) {
	if got < need {
		panic(fmt.Sprintf("kernels.%s: %s has %d elements, needs %d", kernel, arg, got, need))
	}
}

func mustDim(kernel, arg string, v, min int) {
	if v < min {
		panic(fmt.Sprintf("kernels.%s: %s = %d, must be ≥ %d", kernel, arg, v, min))
	}
}

// span is the number of elements a rows×cols matrix with leading dimension
// ld occupies: (rows-1)*ld + cols, or 0 when it is empty.
func span(rows, cols, ld int) int {
	if rows == 0 || cols == 0 {
		return 0
	}
	return (rows-1)*ld + cols
}
