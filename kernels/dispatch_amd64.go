//go:build !purego

package kernels

import "github.com/klauspost/cpuid/v2"

// accelerate returns the best set this CPU (and OS) supports: AVX-512 where
// there is AVX512F+VL, else AVX2+FMA.
func accelerate() *implementation {
	sets := asmSets()
	if len(sets) == 0 {
		return nil
	}
	return sets[len(sets)-1]
}

// cpuFacts is what dispatch reads of a CPU: its features and what it is.
// liveCPU fills it from cpuid; the tests build synthetic ones.
type cpuFacts struct {
	vendor        cpuid.Vendor
	family, model int
	avx2FMA       bool // AVX2 and FMA3 (and the OS saves YMM state)
	avx512        bool // AVX512F and AVX512VL (and the OS saves ZMM state)
}

func liveCPU() cpuFacts {
	c := &cpuid.CPU
	return cpuFacts{
		vendor: c.VendorID, family: c.Family, model: c.Model,
		avx2FMA: c.Supports(cpuid.AVX2, cpuid.FMA3),
		avx512:  c.Supports(cpuid.AVX512F, cpuid.AVX512VL),
	}
}

// zmmFullRate says whether the CPU runs 512-bit FMAs at twice the rate of
// 256-bit ones (two 512-bit FMA pipes), rather than splitting each into two
// 256-bit halves ("double-pumped") or issuing them to a single fused unit:
//   - AMD: family 26 (Zen 5) and later, yes; family 25 (Zen 4), no.
//   - Intel (family 6): the server cores, yes: Skylake-SP, Cascade Lake and
//     Cooper Lake (model 0x55; a few low-end Xeon Silver/Gold 5xxx parts have
//     one 512-bit unit, which cpuid does not tell apart), Ice Lake-SP (0x6A,
//     0x6C), Sapphire Rapids (0x8F), Emerald Rapids (0xCF), Granite Rapids
//     (0xAD, 0xAE). The client cores with AVX-512 (Cannon Lake 0x66, Ice Lake
//     0x7D/0x7E, Tiger Lake 0x8C/0x8D, Rocket Lake 0xA7) fuse their two
//     256-bit pipes into one 512-bit one: no.
//   - Anything else, no: the kernels that pay only at full rate keep their
//     AVX2 form, as before this rule existed.
func zmmFullRate(c cpuFacts) bool {
	if !c.avx512 {
		return false
	}
	switch c.vendor {
	case cpuid.AMD, cpuid.Hygon:
		return c.family >= 26
	case cpuid.Intel:
		if c.family != 6 {
			return false
		}
		switch c.model {
		case 0x55, 0x6A, 0x6C, 0x8F, 0xCF, 0xAD, 0xAE:
			return true
		}
	}
	return false
}

// zen4 says whether the CPU is a Zen 4 (AMD family 25 with AVX-512): its
// 512-bit FMAs are double-pumped, but a ZMM instruction still does twice a
// YMM one's work for one slot of decode, rename and retire, and the
// kernels that are bound by those (the elementwise kernels, the NT tile's
// loads and packing) were measured faster in their ZMM forms there
// (docs/performance.md, "Kernel forms"). Other double-pumped
// or single-unit CPUs (Intel's client cores, Hygon, anything unnamed) were
// never measured and keep the AVX2 forms.
func zen4(c cpuFacts) bool {
	return c.avx512 && c.vendor == cpuid.AMD && c.family == 25
}

// avx512Plan is the avx512 set's choice per kernel family. NN and TN run
// the ZMM tile on every AVX-512 CPU: it wins even double-pumped, by its
// register file (see gemm_avx512_amd64.go; measured on Zen 4). The rest
// are chosen per CPU class, each by measurement (docs/performance.md):
//
//	                        full rate   Zen 4   other AVX-512
//	ntZMM: NT's ZMM tile       yes        yes        no
//	headsZMM: 19 heads, 1 ZMM  yes        no         no
//	elemZMM: elementwise ZMM   yes        yes        no
//
// NT's ZMM tile (ntZMM) runs every NT shape but the 19 heads, which have
// their own kernel wherever there is AVX-512: its ZMM form where headsZMM
// is set, else two YMM vectors a row, which Zen 4 runs faster
// (gemm_heads_amd64.go). The elementwise kernels (GRU gates forward and
// backward, the policy head, Adam, tanh, exp) run their ZMM forms where
// elemZMM is set (useAVX512Elementwise): the same instructions per lane, so
// the same bits as their AVX2 forms. sumSquares and add are AVX2 on every
// x86 backend. Every choice here gives the same bits as the other.
type avx512Plan struct {
	ntZMM    bool
	headsZMM bool
	elemZMM  bool
}

func planAVX512(c cpuFacts) avx512Plan {
	full, z4 := zmmFullRate(c), zen4(c)
	return avx512Plan{ntZMM: full || z4, headsZMM: full, elemZMM: full || z4}
}

// asmSets lists the assembly sets this CPU supports, slowest first, so that
// the tests can check each one, not only the one dispatch picks.
func asmSets() []*implementation { return asmSetsFor(liveCPU()) }

// asmSetsFor lists the sets for a CPU with facts c:
//   - "avx2": AVX2+FMA kernels. Each kernel family's *_amd64.go file
//     contributes its assembly through a useAVX2… function; a family
//     without one keeps its generic twin.
//   - "avx512": the avx2 set with the GEMMs that run the AVX-512 tile where
//     it wins on this CPU (planAVX512, gemm_avx512_amd64.go) and, where
//     the plan says so, the ZMM forms of the lane-independent elementwise
//     kernels (useAVX512Elementwise).
func asmSetsFor(c cpuFacts) []*implementation {
	if !c.avx2FMA {
		return nil
	}
	avx2 := generic
	avx2.name = "avx2"
	useAVX2(&avx2)
	sets := []*implementation{&avx2}
	if c.avx512 {
		avx512 := avx2
		avx512.name = "avx512"
		plan := planAVX512(c)
		useAVX512GEMM(&avx512, plan)
		if plan.elemZMM {
			useAVX512Elementwise(&avx512)
		}
		sets = append(sets, &avx512)
	}
	return sets
}
