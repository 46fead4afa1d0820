// Command elementwise generates the AVX2+FMA kernels of the non-GEMM family
// for package kernels: the fused GRU gate step and its backward, the policy
// head's log-softmax/entropy and its backward, Adam and the float64 sum of
// squares. Run it through `go generate ./kernels/` from the repository root
// (see kernels/elementwise_generate.go); it writes kernels/elementwise_amd64.s
// and kernels/elementwise_amd64_stubs.go, and with -zmm their ZMM forms,
// kernels/elementwise_zmm_amd64.s and its stubs (zmm.go, policy_zmm.go).
//
// Every kernel has exactly the signature of its slot in the kernels package's
// implementation struct, so dispatch assigns the stubs directly. Rows are
// processed in 8-lane chunks; a row's last d%8 (or cols%8) elements go
// through the same code with VMASKMOVPS loads and stores, so nothing outside
// the slices is touched. The transcendental functions are Cephes-style
// (range reduction + polynomial) with the constants from Cephes' expf, logf
// and tanhf.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
	"github.com/mmcloughlin/avo/reg"
)

// c is the build context every emitter writes into: avo's, with the few
// instructions that differ between the AVX2 and the ZMM form intercepted
// (zmm.go), so that both forms come from the same emitters.
var c = ctx{build.NewContext()}

func main() {
	// Our own flag set: avo's build package registers its flags on the default one.
	fs := flag.NewFlagSet("elementwise", flag.ExitOnError)
	out := fs.String("out", "", "assembly output file")
	stubs := fs.String("stubs", "", "Go stub file")
	pkg := fs.String("pkg", "kernels", "package name")
	fs.BoolVar(&wide, "zmm", false, "emit the 16-lane AVX-512 forms (suffix AVX512) instead of the AVX2 ones")
	fs.Parse(os.Args[1:])
	if *out == "" || *stubs == "" {
		fmt.Fprintln(os.Stderr, "usage: elementwise -out FILE.s -stubs FILE.go [-pkg NAME]")
		os.Exit(2)
	}

	c.ConstraintExpr("amd64,!purego") // the stubs file name alone does not restrict the architecture
	constants()
	gruForward()
	gruBackward()
	if wide {
		policyForwardZ()
		policyBackwardZ()
	} else {
		policyForward()
		policyBackward()
	}
	adam()
	if !wide {
		sumSquares()
	}
	unaryTo("tanh"+sfx(), "tanh"+sfx()+" sets dst = tanh(src) (tanhN: ≤ 2 ulp); dst may be src.", func(y reg.VecVirtual) reg.VecVirtual { return tanhN(y)[0] })
	unaryTo("exp"+sfx(), "exp"+sfx()+" sets dst = exp(src) (expN: ≤ 2 ulp); dst may be src.", func(y reg.VecVirtual) reg.VecVirtual { return expN(y)[0] })
	if !wide {
		addTo()
	}

	// The header names this generator as it is run by go:generate.
	pc := printer.Config{Argv: append([]string{"go", "run", "./elementwise"}, os.Args[1:]...), Pkg: *pkg}
	check := !wide // the ZMM forms use EVEX registers by design
	cfg := &build.Config{
		ErrOut:    os.Stderr,
		MaxErrors: 0,
		Passes: []pass.Interface{
			pass.Compile,
			&pass.Output{Writer: &checkedFile{path: *out, check: check}, Printer: printer.NewGoAsm(pc)},
			&pass.Output{Writer: &checkedFile{path: *stubs, check: check}, Printer: printer.NewStubs(pc)},
		},
	}
	os.Exit(build.Main(cfg, c.Context))
}

// checkedFile buffers the output and writes it on Close, after checking
// that no vector register above 15 (an EVEX-only encoding that an AVX2 CPU
// cannot run) and no mask register slipped in through the allocator.
type checkedFile struct {
	path  string
	check bool
	buf   bytes.Buffer
}

var evexOnly = regexp.MustCompile(`\b([XYZ](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[0-7])\b`)

func (f *checkedFile) Write(p []byte) (int, error) { return f.buf.Write(p) }

func (f *checkedFile) Close() error {
	if m := evexOnly.Find(f.buf.Bytes()); f.check && m != nil {
		return fmt.Errorf("%s: register %s needs AVX-512; reduce register pressure", f.path, m)
	}
	return os.WriteFile(f.path, f.buf.Bytes(), 0o644)
}

// ---------------------------------------------------------------------------
// Constants: 32-byte vectors used as memory operands, so that they cost no
// register.

var (
	cOne, cTwo, cSign, cAbs, cNegInf          Mem
	cExpHi, cExpLo, cLog2e, cLn2Hi, cLn2Lo    Mem
	cExpP                                     [6]Mem
	cBias                                     Mem
	cZero, cTanhHi                            Mem
	cMant, cHalfBits, c126, cSqrtHalf, cLogQ1 Mem
	cLogQ2, cMinusHalf                        Mem
	cLogP                                     [9]Mem
	cEntEps                                   Mem
	cIota, cEight, cAllOnes                   Mem
	maskTable                                 Mem
)

func vecU32(name string, v uint32) Mem {
	m := c.StaticGlobal(name)
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	n := 8
	if wide {
		n = 1 // an embedded broadcast {1to16} reads one element
		broadcastable[name] = true
	}
	for i := 0; i < n; i++ {
		c.AddDatum(4*i, U32(v))
	}
	return m
}

func vecF32(name string, v float32) Mem { return vecU32(name, math.Float32bits(v)) }

func constants() {
	cOne = vecF32("one", 1)
	cTwo = vecF32("two", 2)
	cSign = vecU32("signbit", 0x80000000)
	cAbs = vecU32("absmask", 0x7fffffff)
	cNegInf = vecU32("neginf", 0xff800000)

	// exp: clamp so that 2^n splits into two normal factors; n = round(x·log2 e),
	// r = x − n·ln2 (two parts), exp(r) = 1 + r + r²·P(r).
	cExpHi = vecF32("exphi", 89)   // exp(89) overflows: the result is +Inf
	cExpLo = vecF32("explo", -104) // exp(−104) underflows to 0
	cLog2e = vecF32("log2e", 1.44269504088896341)
	cLn2Hi = vecF32("ln2hi", 0.693359375)
	cLn2Lo = vecF32("ln2lo", -2.12194440e-4)
	for i, v := range []float32{1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1} {
		cExpP[i] = vecF32(fmt.Sprintf("expp%d", i), v)
	}
	cBias = vecU32("bias127", 127)

	// tanh: 2|x| clamped to [0, 19]; tanh(9.5) rounds to 1.
	cZero = vecU32("zero", 0)
	cTanhHi = vecF32("tanhhi", 19)

	// log: x = m·2^e with m ∈ [√½, √2), log x = (m−1) − (m−1)²/2 + (m−1)³·P(m−1) + e·ln2.
	cMant = vecU32("mantmask", 0x007fffff)
	cHalfBits = vecU32("halfbits", 0x3f000000)
	c126 = vecU32("i126", 126)
	cSqrtHalf = vecF32("sqrthalf", 0.707106781186547524)
	cLogQ1 = vecF32("logq1", -2.12194440e-4)
	cLogQ2 = vecF32("logq2", 0.693359375)
	cMinusHalf = vecF32("minushalf", -0.5)
	for i, v := range []float32{7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
		-1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1} {
		cLogP[i] = vecF32(fmt.Sprintf("logp%d", i), v)
	}
	cEntEps = vecF32("enteps", 1e-9)

	if wide {
		// maskTable16+2k holds the 16-bit lane mask of a k-element tail.
		maskTable = c.StaticGlobal("masktable16")
		c.DataAttributes(attr.RODATA | attr.NOPTR)
		for i := 0; i < 16; i++ {
			c.AddDatum(2*i, U16(uint16(1)<<i-1))
		}
		// The policy kernels hold two rows' 8-lane chunks in one ZMM
		// register: each half counts its columns 0..7.
		cIota = c.StaticGlobal("iota2")
		c.DataAttributes(attr.RODATA | attr.NOPTR)
		for i := 0; i < 16; i++ {
			c.AddDatum(4*i, U32(i%8))
		}
		cEight = vecU32("eight", 8)
		cAllOnes = vecU32("allones", 0xffffffff)
		return
	}
	cIota = c.StaticGlobal("iota")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := 0; i < 8; i++ {
		c.AddDatum(4*i, U32(i))
	}
	cEight = vecU32("eight", 8)

	// maskTable+32−4k holds k all-ones lanes followed by zeros: the mask for a
	// k-element tail.
	maskTable = c.StaticGlobal("masktable")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := 0; i < 16; i++ {
		v := uint32(0)
		if i < 8 {
			v = 0xffffffff
		}
		c.AddDatum(4*i, U32(v))
	}
}

// ---------------------------------------------------------------------------
// Helpers.

var labelCount int

// label returns a fresh label name.
func label(what string) string {
	labelCount++
	return fmt.Sprintf("%s%d", what, labelCount)
}

// ymm is a fresh vector register of the form being emitted (YMM, or ZMM
// under -zmm).
func ymm() reg.VecVirtual {
	if wide {
		return c.ZMM()
	}
	return c.YMM()
}
func gp() reg.GPVirtual { return c.GP64() }

// mem is [base + index·scale].
func mem(base, index reg.Register, scale uint8) Mem {
	return Mem{Base: base, Index: index, Scale: scale}
}

// chunk is one 8-lane access pattern: full loads and stores, or the same
// under a lane mask (VMASKMOVPS neither reads nor writes masked-out lanes).
// Under -zmm the mask is a K register and the masked forms are EVEX
// VMOVUPS with zeroing (loads) or merging (stores), which likewise neither
// read nor write masked-out lanes (and suppress their faults); the lanes a
// masked load leaves out are zero in both forms.
type chunk struct{ mask reg.Register } // nil mask: full

func (k chunk) load(m Mem) reg.VecVirtual {
	y := ymm()
	switch {
	case k.mask == nil:
		c.VMOVUPS(m, y)
	case wide:
		c.VMOVUPS_Z(m, k.mask, y)
	default:
		c.VMASKMOVPS(m, k.mask, y)
	}
	return y
}

func (k chunk) store(y reg.VecVirtual, m Mem) {
	switch {
	case k.mask == nil:
		c.VMOVUPS(y, m)
	case wide:
		c.VMOVUPS(y, k.mask, m)
	default:
		c.VMASKMOVPS(y, k.mask, m)
	}
}

// add sets y += [m] (a memory operand when full).
func (k chunk) add(m Mem, y reg.VecVirtual) {
	if k.mask == nil {
		c.VADDPS(m, y, y)
		return
	}
	c.VADDPS(k.load(m), y, y)
}

// mul sets y = [m]·y (a memory operand when full).
func (k chunk) mul(m Mem, y reg.VecVirtual) {
	if k.mask == nil {
		c.VMULPS(m, y, y)
		return
	}
	c.VMULPS(k.load(m), y, y)
}

// loadMask loads the lane mask for a tail of remBytes/4 elements.
func loadMask(remBytes reg.GPVirtual) reg.Register {
	if wide {
		p, i := gp(), gp()
		c.LEAQ(maskTable, p)
		c.MOVQ(remBytes, i)
		c.SHRQ(U8(1), i) // 2 bytes per entry
		k := c.K()
		c.KMOVW(mem(p, i, 1), k)
		return k
	}
	p := gp()
	c.LEAQ(maskTable.Offset(32), p)
	c.SUBQ(remBytes, p)
	m := ymm()
	c.VMOVDQU(Mem{Base: p}, m)
	return m
}

// constant loads a vector constant into a fresh register.
func constant(m Mem) reg.VecVirtual {
	y := ymm()
	c.VMOVUPS(m, y)
	return y
}

// ---------------------------------------------------------------------------
// Vector math. Each function takes several independent inputs and emits
// every step for all of them before the next step, so that the CPU sees
// independent work side by side instead of one long dependency chain (the
// kernels are latency-bound otherwise). Results are fresh registers; inputs
// are left alone.

type vecs = []reg.VecVirtual

func fresh(k int) vecs {
	v := make(vecs, k)
	for i := range v {
		v[i] = ymm()
	}
	return v
}

// expCore reduces x = n·ln2 + r (|r| ≤ ln2/2) after clamping x to [lo, hi]
// and returns r + r²·P(r) ≈ e^r − 1 and n, as int32 lanes (as a float
// under -zmm, which scales with VSCALEFPS). x is the clamp's
// first (Intel: second) source, which MINPS/MAXPS return when either is NaN,
// so NaN passes through. hi may be a register.
func expCore(xs vecs, lo, hi Op) (pr, n vecs) {
	k := len(xs)
	t, n := fresh(k), fresh(k)
	hi, lo = held(hi), held(lo)
	for i := range xs {
		if r, ok := hi.(reg.VecVirtual); ok {
			c.VMINPS(xs[i], r, t[i])
			continue
		}
		c.VMOVUPS(hi, t[i])
		c.VMINPS(xs[i], t[i], t[i])
	}
	for i := range xs {
		if r, ok := lo.(reg.VecVirtual); ok {
			c.VMAXPS(t[i], r, t[i])
			continue
		}
		c.VMOVUPS(lo, n[i])
		c.VMAXPS(t[i], n[i], t[i])
	}
	for i := range xs {
		c.VMULPS(cLog2e, t[i], n[i])
	}
	for i := range xs {
		c.VROUNDPS(U8(0), n[i], n[i]) // to nearest
	}
	for i := range xs {
		c.VFNMADD231PS(cLn2Hi, n[i], t[i])
	}
	for i := range xs {
		c.VFNMADD231PS(cLn2Lo, n[i], t[i]) // t = r
	}
	if !wide { // the ZMM forms scale by n as a float (VSCALEFPS)
		for i := range xs {
			c.VCVTPS2DQ(n[i], n[i])
		}
	}
	p := fresh(k)
	for i := range xs {
		c.VMOVUPS(cExpP[0], p[i])
	}
	for _, coef := range cExpP[1:] {
		for i := range xs {
			c.VFMADD213PS(coef, t[i], p[i])
		}
	}
	for i := range xs {
		c.VMULPS(t[i], p[i], p[i])
	}
	for i := range xs {
		c.VFMADD213PS(t[i], t[i], p[i]) // r·(r·P) + r
	}
	return p, n
}

// holding maps a constant to the register a kernel keeps it in (holdConstants).
var holding = map[string]reg.VecVirtual{}

// holdConstants loads the constants ms into registers for the rest of the
// kernel (until release), where expCore reads its clamp bounds from them.
func holdConstants(ms ...Mem) {
	for _, m := range ms {
		holding[m.Symbol.Name] = constant(m)
	}
}

func release() { holding = map[string]reg.VecVirtual{} }

// held is op's register, if a kernel holds it, else op.
func held(op Op) Op {
	if m, ok := op.(Mem); ok {
		if r, ok := holding[m.Symbol.Name]; ok {
			return r
		}
	}
	return op
}

// expN: e^x with ≤ 2 ulp error, +Inf above ~88.72, 0 (through the
// subnormals) below ~−103.3, NaN for NaN.
func expN(xs ...reg.VecVirtual) vecs {
	p, n := expCore(xs, cExpLo, cExpHi)
	for i := range xs {
		c.VADDPS(cOne, p[i], p[i])
	}
	if wide {
		// p·2^n rounded once, as the two exact factors below round it: the
		// same bits in one instruction instead of nine.
		for i := range xs {
			c.Context.VSCALEFPS(n[i], p[i], p[i])
		}
		return p
	}
	// 2^n as two normal factors 2^(n>>1)·2^(n−n>>1), n ∈ [−150, 129].
	n1 := fresh(len(xs))
	for i := range xs {
		c.VPSRAD(U8(1), n[i], n1[i])
		c.VPSUBD(n1[i], n[i], n[i])
	}
	for i := range xs {
		c.VPADDD(cBias, n1[i], n1[i])
		c.VPADDD(cBias, n[i], n[i])
	}
	for i := range xs {
		c.VPSLLD(U8(23), n1[i], n1[i])
		c.VPSLLD(U8(23), n[i], n[i])
	}
	for i := range xs {
		c.VMULPS(n1[i], p[i], p[i])
	}
	for i := range xs {
		c.VMULPS(n[i], p[i], p[i])
	}
	return p
}

// sigmoidN: 1/(1+e^−x) with a true division.
func sigmoidN(xs ...reg.VecVirtual) vecs {
	t := fresh(len(xs))
	for i := range xs {
		c.VXORPS(cSign, xs[i], t[i])
	}
	e := expN(t...)
	s := fresh(len(xs))
	for i := range xs {
		c.VADDPS(cOne, e[i], e[i])
		c.VMOVUPS(cOne, s[i])
	}
	for i := range xs {
		c.VDIVPS(e[i], s[i], s[i])
	}
	return s
}

// tanhN: sign(x)·m/(m+2) with m = e^{2|x|} − 1 computed as 2^n·(e^r − 1) +
// (2^n − 1), which keeps full relative accuracy near 0 (no cancellation, no
// separate polynomial); |x| is clamped to 9.5, where tanh is 1 in float32.
func tanhN(xs ...reg.VecVirtual) vecs {
	k := len(xs)
	ax, sign := fresh(k), fresh(k)
	for i := range xs {
		c.VANDPS(cAbs, xs[i], ax[i])
		c.VXORPS(xs[i], ax[i], sign[i]) // the sign bit alone
	}
	for i := range xs {
		c.VADDPS(ax[i], ax[i], ax[i])
	}
	p, n := expCore(ax, cZero, cTanhHi)
	if wide {
		one := constant(cOne)
		for i := range xs {
			c.Context.VSCALEFPS(n[i], one, n[i]) // 2^n, n ∈ [0, 28]
		}
	} else {
		for i := range xs {
			c.VPADDD(cBias, n[i], n[i])
			c.VPSLLD(U8(23), n[i], n[i]) // 2^n, n ∈ [0, 28]
		}
	}
	for i := range xs {
		c.VSUBPS(cOne, n[i], ax[i]) // 2^n − 1
		c.VFMADD213PS(ax[i], n[i], p[i])
	}
	for i := range xs {
		c.VADDPS(cTwo, p[i], ax[i])
	}
	for i := range xs {
		c.VDIVPS(ax[i], p[i], p[i])
	}
	for i := range xs {
		c.VORPS(sign[i], p[i], p[i])
	}
	return p
}

// logN: Cephes logf for positive normal x, ≤ 2 ulp, in three registers per
// input: x = m·2^e with m ∈ [√½, √2), f = m−1, and
// log x = f + f²·(f·P(f) − ½) + e·ln2 (ln2 in two parts). With nanFix, NaN
// in gives NaN out (otherwise the caller must not rely on it).
func logN(nanFix bool, xs ...reg.VecVirtual) vecs {
	k := len(xs)
	e, m, lt := fresh(k), fresh(k), fresh(k)
	for i, x := range xs {
		c.VPSRLD(U8(23), x, e[i])
		c.VANDPS(cMant, x, m[i])
	}
	for i := range xs {
		c.VPSUBD(c126, e[i], e[i])
		c.VORPS(cHalfBits, m[i], m[i]) // m ∈ [0.5, 1), x = m·2^e
	}
	if wide {
		// The same with a K mask: e−1 and m where m < √½, e and +0 elsewhere.
		for i := range xs {
			k := c.K()
			c.Context.VCMPPS_BCST(U8(1), cSqrtHalf, m[i], k)
			c.Context.VPADDD_BCST(cAllOnes, e[i], k, e[i])
			c.VMOVAPS_Z(m[i], k, lt[i])
		}
	} else {
		for i := range xs {
			c.VCMPPS(U8(1), cSqrtHalf, m[i], lt[i]) // m < √½: use 2m and e−1
		}
		for i := range xs {
			c.VPADDD(lt[i], e[i], e[i]) // all-ones lanes are −1
			c.VANDPS(m[i], lt[i], lt[i])
		}
	}
	for i := range xs {
		c.VSUBPS(cOne, m[i], m[i])
		c.VCVTDQ2PS(e[i], e[i])
	}
	for i := range xs {
		c.VADDPS(lt[i], m[i], m[i]) // f ∈ [√½−1, √2−1)
	}
	p := lt
	for i := range xs {
		c.VMOVUPS(cLogP[0], p[i])
	}
	for _, coef := range cLogP[1:] {
		for i := range xs {
			c.VFMADD213PS(coef, m[i], p[i])
		}
	}
	for i := range xs {
		c.VFMADD213PS(cMinusHalf, m[i], p[i]) // f·P − ½
	}
	for i := range xs {
		c.VMULPS(m[i], p[i], p[i])
	}
	for i := range xs {
		c.VMULPS(m[i], p[i], p[i]) // f²·(f·P − ½)
	}
	for i := range xs {
		c.VFMADD231PS(cLogQ1, e[i], p[i])
	}
	for i := range xs {
		c.VADDPS(m[i], p[i], p[i])
	}
	for i := range xs {
		c.VFMADD231PS(cLogQ2, e[i], p[i])
	}
	if nanFix && wide {
		for i, x := range xs {
			k := c.K()
			c.Context.VCMPPS(U8(3), x, x, k) // unordered
			c.Context.VPORD_BCST(cAllOnes, p[i], k, p[i])
		}
	} else if nanFix {
		for i, x := range xs {
			c.VCMPPS(U8(3), x, x, m[i]) // unordered
			c.VORPS(m[i], p[i], p[i])
		}
	}
	return p
}

// hreduce combines the 8 lanes of y with op (VMAXPS or VADDPS) and returns
// the result broadcast to all lanes of a fresh register.
func hreduce(op func(a, b, d Op), y reg.VecVirtual) reg.VecVirtual {
	x := c.XMM()
	c.VEXTRACTF128(U8(1), y, x)
	op(y.AsX(), x, x)
	t := c.XMM()
	c.VPERMILPS(U8(0x4e), x, t)
	op(t, x, x)
	c.VPERMILPS(U8(0xb1), x, t)
	op(t, x, x)
	r := ymm()
	c.VBROADCASTSS(x, r)
	return r
}

// loopChunks emits `for j := count; j > 0; j-- { body(); }`; count is not modified.
func loopChunks(count reg.GPVirtual, body func()) {
	j := gp()
	top, end := label("loop"), label("loopend")
	c.MOVQ(count, j)
	c.TESTQ(j, j)
	c.JZ(LabelRef(end))
	c.Label(top)
	body()
	c.DECQ(j)
	c.JNZ(LabelRef(top))
	c.Label(end)
}

// ifTail emits `if remBytes != 0 { body() }`.
func ifTail(remBytes reg.GPVirtual, body func()) {
	skip := label("notail")
	c.TESTQ(remBytes, remBytes)
	c.JZ(LabelRef(skip))
	body()
	c.Label(skip)
}

// splitLen sets nfull = n/lanes and remBytes = 4·(n%lanes) for n elements.
func splitLen(n reg.GPVirtual) (nfull, remBytes reg.GPVirtual) {
	nfull, remBytes = gp(), gp()
	c.MOVQ(n, nfull)
	c.SHRQ(U8(lanesLog()), nfull)
	c.MOVQ(n, remBytes)
	c.ANDQ(U8(lanes()-1), remBytes)
	c.SHLQ(U8(2), remBytes)
	return
}

func ret() {
	c.VZEROUPPER()
	c.RET()
}

// ---------------------------------------------------------------------------
// GRU.

func gruForward() {
	c.Function("gruForward" + sfx())
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr("func(rows, d int, table []float32, tokens []int32, gh, hPrev, hNext, act []float32)")
	if wide {
		c.Doc("gruForwardAVX512 is gruForwardAVX2 in 16-lane ZMM registers: the same instructions per lane,",
			"so the same bits; d%16 tails go through masked loads and stores.")
	} else {
		c.Doc("gruForwardAVX2 is gruForwardGeneric with AVX2+FMA; d%8 tails go through masked loads and stores.")
	}
	done := label("done")

	rows := ld(c.Param("rows"))
	d := ld(c.Param("d"))
	table := ld(c.Param("table").Base())
	tok := ld(c.Param("tokens").Base())
	gh := ld(c.Param("gh").Base())
	hp := ld(c.Param("hPrev").Base())
	hn := ld(c.Param("hNext").Base())
	act := ld(c.Param("act").Base())
	c.TESTQ(rows, rows)
	c.JLE(LabelRef(done))
	c.TESTQ(d, d)
	c.JLE(LabelRef(done))
	nfull, remB := splitLen(d)
	d4 := d
	c.SHLQ(U8(2), d4) // bytes in d floats
	mask := loadMask(remB)
	if wide {
		holdConstants(cExpLo, cExpHi, cZero, cTanhHi)
		defer release()
	}

	// ways adjacent chunks, interleaved: gate block b of chunk i is at
	// base + 32·i + b·d4 for gi, gh and act; chunk i of h at base + 32·i.
	body := func(k chunk, ways int, gi reg.GPVirtual) {
		at := func(base reg.GPVirtual, block, i int) Mem {
			m := Mem{Base: base, Disp: vecBytes() * i}
			if block > 0 {
				m.Index, m.Scale = d4, uint8(block)
			}
			return m
		}
		var x vecs // r and z gate inputs of each chunk
		for i := 0; i < ways; i++ {
			for b := 0; b < 2; b++ {
				v := k.load(at(gi, b, i))
				k.add(at(gh, b, i), v)
				x = append(x, v)
			}
		}
		rz := sigmoidN(x...)
		xn := fresh(ways)
		for i := 0; i < ways; i++ {
			k.store(rz[2*i], at(act, 0, i))
			k.store(rz[2*i+1], at(act, 1, i))
			xn[i] = k.load(at(gh, 2, i))
			c.VMULPS(rz[2*i], xn[i], xn[i])
			k.add(at(gi, 2, i), xn[i]) // gi_n + r·gh_n, rounded like the Go twin
		}
		n := tanhN(xn...)
		for i := 0; i < ways; i++ {
			z := rz[2*i+1]
			k.store(n[i], at(act, 2, i))
			// h' = (1−z)·n + z·h
			omz := constant(cOne)
			c.VSUBPS(z, omz, omz)
			c.VMULPS(n[i], omz, omz)
			k.mul(at(hp, 0, i), z)
			c.VADDPS(z, omz, omz)
			k.store(omz, at(hn, 0, i))
		}
	}

	top := label("row")
	c.Label(top)
	gi := gp()
	c.MOVLQSX(Mem{Base: tok}, gi)
	c.LEAQ(mem(gi, gi, 2), gi)
	c.IMULQ(d4, gi)
	c.ADDQ(table, gi)
	run := func(ways int) {
		body(chunk{}, ways, gi)
		for _, p := range []reg.GPVirtual{gi, gh, act, hp, hn} {
			c.ADDQ(imm(ways*vecBytes()), p)
		}
	}
	rem := nfull
	if wide {
		rem = gp()
		// Three chunks at a time (six sigmoids side by side): two are too few
		// to hide the exp chains' latency, and 32 registers hold three.
		left := gp()
		c.MOVQ(nfull, left)
		top3, rest := label("three"), label("rest")
		c.Label(top3)
		c.CMPQ(left, U8(3))
		c.JB(LabelRef(rest))
		run(3)
		c.SUBQ(U8(3), left)
		c.JMP(LabelRef(top3))
		c.Label(rest)
		c.MOVQ(left, rem) // 0, 1 or 2 chunks left: as below
	}
	pairs := gp()
	c.MOVQ(rem, pairs)
	c.SHRQ(U8(1), pairs)
	loopChunks(pairs, func() { run(2) })
	odd := label("even")
	c.TESTQ(U32(1), rem)
	c.JZ(LabelRef(odd))
	run(1)
	c.Label(odd)
	ifTail(remB, func() {
		body(chunk{mask}, 1, gi)
		for _, p := range []reg.GPVirtual{gh, act, hp, hn} {
			c.ADDQ(remB, p)
		}
	})
	// gh and act have moved over the r block: skip z and n.
	c.LEAQ(mem(gh, d4, 2), gh)
	c.LEAQ(mem(act, d4, 2), act)
	c.ADDQ(U8(4), tok)
	c.DECQ(rows)
	c.JNZ(LabelRef(top))
	c.Label(done)
	ret()
}

func gruBackward() {
	c.Function("gruBackward" + sfx())
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr("func(rows, d int, tokens []int32, act, gh, hPrev, dhNext, dgh, dhPrev, dTable []float32)")
	if wide {
		c.Doc("gruBackwardAVX512 is gruBackwardAVX2 in 16-lane ZMM registers: the same operations",
			"in the same order (no FMA), so it rounds as the Go twin does.")
	} else {
		c.Doc("gruBackwardAVX2 is gruBackwardGeneric with AVX2, the same operations in the same order",
			"(no FMA), so it rounds as the Go twin does.")
	}
	done := label("done")

	rows := ld(c.Param("rows"))
	d := ld(c.Param("d"))
	tok := ld(c.Param("tokens").Base())
	act := ld(c.Param("act").Base())
	gh := ld(c.Param("gh").Base())
	hp := ld(c.Param("hPrev").Base())
	dh := ld(c.Param("dhNext").Base())
	dg := ld(c.Param("dgh").Base())
	dhp := ld(c.Param("dhPrev").Base())
	c.TESTQ(rows, rows)
	c.JLE(LabelRef(done))
	c.TESTQ(d, d)
	c.JLE(LabelRef(done))
	d4 := d
	c.SHLQ(U8(2), d4)
	var mask reg.Register
	{
		rb := gp()
		c.MOVQ(d4, rb)
		c.ANDQ(U8(vecBytes()-1), rb)
		mask = loadMask(rb)
	}

	body := func(k chunk, dt reg.GPVirtual) {
		z := k.load(mem(act, d4, 1))
		n := k.load(mem(act, d4, 2))
		dhv := k.load(Mem{Base: dh})

		// dhPrev = dh·z
		t := ymm()
		c.VMULPS(z, dhv, t)
		k.store(t, Mem{Base: dhp})

		omz := constant(cOne)
		c.VSUBPS(z, omz, omz) // 1−z
		dn := ymm()
		c.VMULPS(omz, dhv, dn)
		dz := k.load(Mem{Base: hp})
		c.VSUBPS(n, dz, dz)
		c.VMULPS(dz, dhv, dz) // dh·(h−n)
		c.VMULPS(n, n, n)
		nn := constant(cOne)
		c.VSUBPS(n, nn, nn)  // 1−n²
		c.VMULPS(nn, dn, dn) // dan
		c.VMULPS(z, dz, dz)
		c.VMULPS(omz, dz, dz) // daz = dz·z·(1−z)

		r := k.load(Mem{Base: act})
		dar := k.load(mem(gh, d4, 2))
		c.VMULPS(dar, dn, dar) // dan·gh_n  (dan first, as in the Go twin)
		c.VMULPS(r, dar, dar)
		omr := constant(cOne)
		c.VSUBPS(r, omr, omr)
		c.VMULPS(omr, dar, dar) // ·r·(1−r)
		c.VMULPS(dn, r, r)      // dan·r

		k.store(dar, Mem{Base: dg})
		k.store(dz, mem(dg, d4, 1))
		k.store(r, mem(dg, d4, 2))
		for i, v := range []reg.VecVirtual{dar, dz, dn} {
			m := Mem{Base: dt}
			if i > 0 {
				m = mem(dt, d4, uint8(i))
			}
			s := k.load(m)
			c.VADDPS(v, s, s)
			k.store(s, m)
		}
	}

	top := label("row")
	c.Label(top)
	dt := gp()
	c.MOVLQSX(Mem{Base: tok}, dt)
	c.LEAQ(mem(dt, dt, 2), dt)
	c.IMULQ(d4, dt)
	c.ADDQ(ld(c.Param("dTable").Base()), dt)
	nfull := gp()
	c.MOVQ(d4, nfull)
	c.SHRQ(U8(lanesLog()+2), nfull)
	loopChunks(nfull, func() {
		body(chunk{}, dt)
		for _, p := range []reg.GPVirtual{dt, act, gh, hp, dh, dg, dhp} {
			c.ADDQ(imm(vecBytes()), p)
		}
	})
	rb := gp()
	c.MOVQ(d4, rb)
	c.ANDQ(U8(vecBytes()-1), rb)
	ifTail(rb, func() {
		body(chunk{mask}, dt)
		for _, p := range []reg.GPVirtual{act, gh, hp, dh, dg, dhp} {
			c.ADDQ(rb, p)
		}
	})
	c.LEAQ(mem(act, d4, 2), act)
	c.LEAQ(mem(gh, d4, 2), gh)
	c.LEAQ(mem(dg, d4, 2), dg)
	c.ADDQ(U8(4), tok)
	c.DECQ(rows)
	c.JNZ(LabelRef(top))
	c.Label(done)
	ret()
}

// ---------------------------------------------------------------------------
// Policy head.

// rowAt addresses row i (0 or 1) of a pair: base, or base + stride.
func rowAt(base, stride reg.GPVirtual, i int) Mem {
	if i == 0 {
		return Mem{Base: base}
	}
	return mem(base, stride, 1)
}

// rowPairs emits body(2) for each pair of rows and body(1) for an odd last
// one; body advances the row pointers itself.
func rowPairs(rows reg.GPVirtual, body func(ways int)) {
	pairs := gp()
	c.MOVQ(rows, pairs)
	c.SHRQ(U8(1), pairs)
	loopChunks(pairs, func() { body(2) })
	even := label("even")
	c.TESTQ(U32(1), rows)
	c.JZ(LabelRef(even))
	body(1)
	c.Label(even)
}

func policyForward() {
	c.Function("policyForwardAVX2")
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr("func(rows, cols int, logits []float32, ld int, logp, ent []float32)")
	c.Doc("policyForwardAVX2 is policyForwardGeneric with AVX2+FMA: two rows at a time, interleaved,",
		"each in 8-lane chunks (cols%8 tails masked), with vector exp and log.")
	done := label("done")

	rows := ld(c.Param("rows"))
	cols := ld(c.Param("cols"))
	x := ld(c.Param("logits").Base())
	ld4 := ld(c.Param("ld"))
	lp := ld(c.Param("logp").Base())
	ent := ld(c.Param("ent").Base())
	c.TESTQ(rows, rows)
	c.JLE(LabelRef(done))
	c.TESTQ(cols, cols)
	c.JLE(LabelRef(done))
	c.SHLQ(U8(2), ld4)
	nfull, remB := splitLen(cols)
	cols4 := cols
	c.SHLQ(U8(2), cols4)
	mask := loadMask(remB)
	full, tail := chunk{}, chunk{mask}
	xp := gp()

	rowPairs(rows, func(w int) {
		// Pass 1: each row's maximum (masked lanes keep the running max).
		mx := fresh(w)
		for i := range mx {
			c.VMOVUPS(cNegInf, mx[i])
		}
		c.MOVQ(x, xp)
		loopChunks(nfull, func() {
			for i := range mx {
				c.VMAXPS(rowAt(xp, ld4, i), mx[i], mx[i])
			}
			c.ADDQ(U8(32), xp)
		})
		ifTail(remB, func() {
			for i := range mx {
				v := tail.load(rowAt(xp, ld4, i))
				c.VBLENDVPS(mask, v, mx[i], v) // mask ? v : mx
				c.VMAXPS(v, mx[i], mx[i])
			}
		})
		for i := range mx {
			mx[i] = hreduce(func(a, b, d Op) { c.VMAXPS(a, b, d) }, mx[i])
		}

		// Pass 2: Σ exp(v − max).
		sum := fresh(w)
		for i := range sum {
			c.VXORPS(sum[i], sum[i], sum[i])
		}
		pass2 := func(k chunk) {
			v := fresh(w)
			for i := range v {
				v[i] = k.load(rowAt(xp, ld4, i))
				c.VSUBPS(mx[i], v[i], v[i])
			}
			e := expN(v...)
			for i := range e {
				if k.mask != nil {
					c.VANDPS(k.mask, e[i], e[i])
				}
				c.VADDPS(e[i], sum[i], sum[i])
			}
		}
		c.MOVQ(x, xp)
		loopChunks(nfull, func() {
			pass2(full)
			c.ADDQ(U8(32), xp)
		})
		ifTail(remB, func() { pass2(tail) })
		for i := range sum {
			sum[i] = hreduce(func(a, b, d Op) { c.VADDPS(a, b, d) }, sum[i])
		}
		lse := logN(true, sum...)
		for i := range lse {
			c.VADDPS(mx[i], lse[i], lse[i])
		}

		// Pass 3: logp = v − lse; entropy −Σ p·log(p+ε), p = exp(logp).
		acc := fresh(w)
		for i := range acc {
			c.VXORPS(acc[i], acc[i], acc[i])
		}
		pass3 := func(k chunk) {
			l := fresh(w)
			for i := range l {
				l[i] = k.load(rowAt(xp, ld4, i))
				c.VSUBPS(lse[i], l[i], l[i])
				k.store(l[i], rowAt(lp, cols4, i))
			}
			p := expN(l...)
			q := fresh(w)
			for i := range p {
				if k.mask != nil {
					c.VANDPS(k.mask, p[i], p[i])
				}
				c.VADDPS(cEntEps, p[i], q[i])
			}
			lg := logN(false, q...) // p is NaN wherever q is
			for i := range lg {
				c.VFMADD231PS(lg[i], p[i], acc[i])
			}
		}
		c.MOVQ(x, xp)
		loopChunks(nfull, func() {
			pass3(full)
			c.ADDQ(U8(32), xp)
			c.ADDQ(U8(32), lp)
		})
		ifTail(remB, func() {
			pass3(tail)
			c.ADDQ(remB, lp)
		})
		for i := range acc {
			a := hreduce(func(a, b, d Op) { c.VADDPS(a, b, d) }, acc[i])
			c.VXORPS(cSign, a, a)
			c.VMOVSS(a.AsX(), Mem{Base: ent, Disp: 4 * i})
		}

		for i := 0; i < w; i++ {
			c.ADDQ(ld4, x)
		}
		if w == 2 {
			c.ADDQ(cols4, lp) // pass 3 moved lp over the first row only
		}
		c.ADDQ(U8(4*w), ent)
	})
	c.Label(done)
	ret()
}

func policyBackward() {
	c.Function("policyBackwardAVX2")
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr("func(rows, cols int, logp []float32, actions []int32, dlogp, dent, dlogits []float32, ld int)")
	c.Doc("policyBackwardAVX2 is policyBackwardGeneric with AVX2+FMA: two rows at a time, interleaved,",
		"each in 8-lane chunks (cols%8 tails masked), with vector exp and log.")
	done := label("done")

	rows := ld(c.Param("rows"))
	cols := ld(c.Param("cols"))
	lp := ld(c.Param("logp").Base())
	acts := ld(c.Param("actions").Base())
	dlp := ld(c.Param("dlogp").Base())
	dent := ld(c.Param("dent").Base())
	dx := ld(c.Param("dlogits").Base())
	ld4 := ld(c.Param("ld"))
	c.TESTQ(rows, rows)
	c.JLE(LabelRef(done))
	c.TESTQ(cols, cols)
	c.JLE(LabelRef(done))
	c.SHLQ(U8(2), ld4)
	nfull, remB := splitLen(cols)
	cols4 := cols
	c.SHLQ(U8(2), cols4)
	mask := loadMask(remB)
	full, tail := chunk{}, chunk{mask}
	lpp, dxp := gp(), gp()

	rowPairs(rows, func(w int) {
		// Pass 1: g = −(log(p+ε) + p/(p+ε)) into dlogits (the tail's stays
		// in registers), pg = Σ p·g.
		pg := fresh(w)
		for i := range pg {
			c.VXORPS(pg[i], pg[i], pg[i])
		}
		grad := func(k chunk) (p, g vecs) {
			l := fresh(w)
			for i := range l {
				l[i] = k.load(rowAt(lpp, cols4, i))
			}
			p = expN(l...)
			q, r := fresh(w), fresh(w)
			for i := range p {
				if k.mask != nil {
					c.VANDPS(k.mask, p[i], p[i])
				}
				c.VADDPS(cEntEps, p[i], q[i])
			}
			for i := range p {
				c.VDIVPS(q[i], p[i], r[i])
			}
			g = logN(false, q...) // p/(p+ε) is NaN wherever p+ε is
			for i := range g {
				c.VADDPS(r[i], g[i], g[i])
				c.VXORPS(cSign, g[i], g[i])
				c.VFMADD231PS(g[i], p[i], pg[i])
			}
			return p, g
		}
		c.MOVQ(lp, lpp)
		c.MOVQ(dx, dxp)
		loopChunks(nfull, func() {
			_, g := grad(full)
			for i := range g {
				c.VMOVUPS(g[i], rowAt(dxp, ld4, i))
			}
			c.ADDQ(U8(32), lpp)
			c.ADDQ(U8(32), dxp)
		})
		gTail := fresh(w)
		ifTail(remB, func() {
			_, g := grad(tail)
			for i := range g {
				c.VMOVAPS(g[i], gTail[i])
			}
		})
		for i := range pg {
			pg[i] = hreduce(func(a, b, d Op) { c.VADDPS(a, b, d) }, pg[i])
		}

		// Pass 2: dx = de·p·(g − pg) − dl·p, plus dl at the action.
		col := ymm() // column index of each lane
		c.VMOVDQU(cIota, col)
		pass2 := func(k chunk, g vecs) {
			l := fresh(w)
			for i := range l {
				l[i] = k.load(rowAt(lp, cols4, i))
			}
			p := expN(l...)
			for i := range p {
				dl, t := ymm(), ymm()
				c.VBROADCASTSS(Mem{Base: dent, Disp: 4 * i}, t)
				c.VMULPS(p[i], t, t) // de·p
				c.VSUBPS(pg[i], g[i], g[i])
				c.VMULPS(g[i], t, t)
				c.VBROADCASTSS(Mem{Base: dlp, Disp: 4 * i}, dl)
				c.VMULPS(p[i], dl, p[i])
				c.VSUBPS(p[i], t, t)
				hit := ymm()
				c.VPBROADCASTD(Mem{Base: acts, Disp: 4 * i}, hit)
				c.VPCMPEQD(col, hit, hit)
				c.VANDPS(dl, hit, hit)
				c.VADDPS(hit, t, t)
				k.store(t, rowAt(dxp, ld4, i))
			}
		}
		c.MOVQ(dx, dxp)
		loopChunks(nfull, func() {
			g := fresh(w)
			for i := range g {
				c.VMOVUPS(rowAt(dxp, ld4, i), g[i])
			}
			pass2(full, g)
			c.VPADDD(cEight, col, col)
			c.ADDQ(U8(32), lp)
			c.ADDQ(U8(32), dxp)
		})
		ifTail(remB, func() {
			pass2(tail, gTail)
			c.ADDQ(remB, lp)
		})

		for i := 0; i < w; i++ {
			c.ADDQ(ld4, dx)
		}
		if w == 2 {
			c.ADDQ(cols4, lp) // pass 2 moved lp over the first row only
		}
		c.ADDQ(U8(4*w), acts)
		c.ADDQ(U8(4*w), dlp)
		c.ADDQ(U8(4*w), dent)
	})
	c.Label(done)
	ret()
}

// ---------------------------------------------------------------------------
// Optimizer and reductions.

func adam() {
	c.Function("adam" + sfx())
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr("func(p, g, m, v []float32, gradScale, beta1, beta2, eps, stepSize, bc2Sqrt float32)")
	if wide {
		c.Doc("adamAVX512 is adamAVX2 in 16-lane ZMM registers: the same IEEE operations in the same order",
			"(VSQRTPS, true VDIVPS, no FMA), so it rounds as the Go twin does.")
	} else {
		c.Doc("adamAVX2 is adamGeneric with AVX2: the same IEEE operations in the same order",
			"(VSQRTPS, true VDIVPS, no FMA), so it rounds as the Go twin does.")
	}
	done := label("done")

	n := ld(c.Param("p").Len())
	pp := ld(c.Param("p").Base())
	gg := ld(c.Param("g").Base())
	mm := ld(c.Param("m").Base())
	vv := ld(c.Param("v").Base())
	bcast := func(name string) reg.VecVirtual {
		x := c.Load(c.Param(name), c.XMM())
		y := ymm()
		c.VBROADCASTSS(x, y)
		return y
	}
	gs := bcast("gradScale")
	b1 := bcast("beta1")
	b2 := bcast("beta2")
	eps := bcast("eps")
	step := bcast("stepSize")
	bc2 := bcast("bc2Sqrt")
	omb1, omb2 := constant(cOne), constant(cOne)
	c.VSUBPS(b1, omb1, omb1)
	c.VSUBPS(b2, omb2, omb2)
	c.TESTQ(n, n)
	c.JLE(LabelRef(done))
	nfull, remB := splitLen(n)
	mask := loadMask(remB)

	body := func(k chunk) {
		gi := k.load(Mem{Base: gg})
		c.VMULPS(gs, gi, gi)
		m := k.load(Mem{Base: mm})
		c.VMULPS(m, b1, m)
		t := ymm()
		c.VMULPS(gi, omb1, t)
		c.VADDPS(t, m, m)
		k.store(m, Mem{Base: mm})
		v := k.load(Mem{Base: vv})
		c.VMULPS(v, b2, v)
		c.VMULPS(gi, omb2, t)
		c.VMULPS(gi, t, t)
		c.VADDPS(t, v, v)
		k.store(v, Mem{Base: vv})
		c.VSQRTPS(v, v)
		c.VDIVPS(bc2, v, v)
		c.VADDPS(eps, v, v)
		c.VMULPS(m, step, m)
		c.VDIVPS(v, m, m)
		p := k.load(Mem{Base: pp})
		c.VSUBPS(m, p, p)
		k.store(p, Mem{Base: pp})
	}
	loopChunks(nfull, func() {
		body(chunk{})
		for _, p := range []reg.GPVirtual{pp, gg, mm, vv} {
			c.ADDQ(imm(vecBytes()), p)
		}
	})
	ifTail(remB, func() { body(chunk{mask}) })
	c.Label(done)
	ret()
}

func sumSquares() {
	c.Function("sumSquaresAVX2")
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr("func(x []float32) float64")
	c.Doc("sumSquaresAVX2 returns Σ x² accumulated in float64: 8 accumulators of 4 doubles.")
	const nacc = 8
	x := ld(c.Param("x").Base())
	n := ld(c.Param("x").Len())
	var acc [nacc]reg.VecVirtual
	for i := range acc {
		acc[i] = ymm()
		c.VXORPD(acc[i], acc[i], acc[i])
	}
	// 32 floats per iteration.
	blocks := gp()
	c.MOVQ(n, blocks)
	c.SHRQ(U8(5), blocks)
	loopChunks(blocks, func() {
		for i := range acc {
			t := ymm()
			c.VCVTPS2PD(Mem{Base: x, Disp: 16 * i}, t)
			c.VFMADD231PD(t, t, acc[i])
		}
		c.ADDQ(U8(128), x)
	})
	// Then 4 at a time, then one at a time.
	quads := gp()
	c.MOVQ(n, quads)
	c.ANDQ(U8(31), quads)
	c.SHRQ(U8(2), quads)
	loopChunks(quads, func() {
		t := ymm()
		c.VCVTPS2PD(Mem{Base: x}, t)
		c.VFMADD231PD(t, t, acc[0])
		c.ADDQ(U8(16), x)
	})
	for i := 1; i < nacc; i *= 2 {
		for j := 0; j+i < nacc; j += 2 * i {
			c.VADDPD(acc[j+i], acc[j], acc[j])
		}
	}
	s := acc[0]
	hi := c.XMM()
	c.VEXTRACTF128(U8(1), s, hi)
	c.VADDPD(hi, s.AsX(), hi)
	lo := c.XMM()
	c.VUNPCKHPD(hi, hi, lo)
	c.VADDSD(lo, hi, hi)
	ones := gp()
	c.MOVQ(n, ones)
	c.ANDQ(U8(3), ones)
	loopChunks(ones, func() {
		t := c.XMM()
		c.VCVTSS2SD(Mem{Base: x}, t, t)
		c.VFMADD231SD(t, t, hi)
		c.ADDQ(U8(4), x)
	})
	c.Store(hi, c.ReturnIndex(0))
	ret()
}

// unaryTo emits func(dst, src []float32) setting dst[i] = f(src[i]) for
// i < len(dst) (the caller guarantees len(src) ≥ len(dst)).
func unaryTo(name, doc string, f func(reg.VecVirtual) reg.VecVirtual) {
	c.Function(name)
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr("func(dst, src []float32)")
	c.Doc(doc)
	done := label("done")
	n := ld(c.Param("dst").Len())
	d := ld(c.Param("dst").Base())
	sp := ld(c.Param("src").Base())
	c.TESTQ(n, n)
	c.JLE(LabelRef(done))
	nfull, remB := splitLen(n)
	mask := loadMask(remB)
	body := func(k chunk) { k.store(f(k.load(Mem{Base: sp})), Mem{Base: d}) }
	loopChunks(nfull, func() {
		body(chunk{})
		c.ADDQ(imm(vecBytes()), d)
		c.ADDQ(imm(vecBytes()), sp)
	})
	ifTail(remB, func() { body(chunk{mask}) })
	c.Label(done)
	ret()
}

// addTo emits addAVX2(dst, src): dst[i] += src[i] for i < len(dst),
// 32 floats per iteration.
func addTo() {
	c.Function("addAVX2")
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr("func(dst, src []float32)")
	c.Doc("addAVX2 sets dst += src elementwise (len(src) ≥ len(dst)).")
	done := label("done")
	n := ld(c.Param("dst").Len())
	d := ld(c.Param("dst").Base())
	sp := ld(c.Param("src").Base())
	c.TESTQ(n, n)
	c.JLE(LabelRef(done))
	blocks := gp()
	c.MOVQ(n, blocks)
	c.SHRQ(U8(5), blocks)
	loopChunks(blocks, func() {
		for i := 0; i < 4; i++ {
			y := ymm()
			c.VMOVUPS(Mem{Base: sp, Disp: 32 * i}, y)
			c.VADDPS(Mem{Base: d, Disp: 32 * i}, y, y)
			c.VMOVUPS(y, Mem{Base: d, Disp: 32 * i})
		}
		c.ADDQ(U8(128), d)
		c.ADDQ(U8(128), sp)
	})
	rest := gp()
	c.MOVQ(n, rest)
	c.ANDQ(U8(31), rest)
	nfull, remB := splitLen(rest)
	mask := loadMask(remB)
	body := func(k chunk) {
		y := k.load(Mem{Base: sp})
		k.add(Mem{Base: d}, y)
		k.store(y, Mem{Base: d})
	}
	loopChunks(nfull, func() {
		body(chunk{})
		c.ADDQ(U8(32), d)
		c.ADDQ(U8(32), sp)
	})
	ifTail(remB, func() { body(chunk{mask}) })
	c.Label(done)
	ret()
}

// ld loads an argument into a fresh general-purpose register.
func ld(src gotypes.Component) reg.GPVirtual {
	r := gp()
	c.Load(src, r)
	return r
}
