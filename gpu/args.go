package gpu

import "math"

// args packs a kernel's parameters for cuLaunchKernel: each value in its own
// 8-byte slot, little-endian, and kernelParams[i] points at slot i. The
// driver reads from each pointer as many bytes as the kernel's i-th parameter
// has, so a 4-byte int reads the slot's low half. Device pointers are
// uint64 (CUdeviceptr).
type args struct {
	slots []uint64
	kinds []byte // for tests and error messages: 'p' pointer, 'i' int32, 'u' uint32, 'f' float32, 'd' float64
}

func (a *args) reset() *args { a.slots, a.kinds = a.slots[:0], a.kinds[:0]; return a }

func (a *args) add(v uint64, k byte) *args {
	a.slots = append(a.slots, v)
	a.kinds = append(a.kinds, k)
	return a
}

func (a *args) ptr(p devPtr) *args  { return a.add(uint64(p), 'p') }
func (a *args) i32(v int) *args     { return a.add(uint64(uint32(int32(v))), 'i') }
func (a *args) u32(v uint32) *args  { return a.add(uint64(v), 'u') }
func (a *args) f32(v float32) *args { return a.add(uint64(math.Float32bits(v)), 'f') }
func (a *args) f64(v float64) *args { return a.add(math.Float64bits(v), 'd') }
func (a *args) flag(v bool) *args {
	if v {
		return a.i32(1)
	}
	return a.i32(0)
}

// matches reports whether the packed values have the parameter sizes sig
// spells (ptxInfo.Params: '8' for pointers and float64, '4' otherwise); it
// allocates nothing, since every launch checks it.
func (a *args) matches(sig string) bool {
	if len(a.kinds) != len(sig) {
		return false
	}
	for i, k := range a.kinds {
		want := byte('4')
		if k == 'p' || k == 'd' {
			want = '8'
		}
		if sig[i] != want {
			return false
		}
	}
	return true
}

// signature spells the packed values' sizes as ptxInfo.Params does (for
// error messages).
func (a *args) signature() string {
	b := make([]byte, len(a.kinds))
	for i, k := range a.kinds {
		b[i] = '4'
		if k == 'p' || k == 'd' {
			b[i] = '8'
		}
	}
	return string(b)
}

// devPtr is a CUdeviceptr.
type devPtr uint64

// at is the address of element i of a buffer of 4-byte elements.
func (p devPtr) at(i int) devPtr {
	if p == 0 {
		return 0
	}
	return p + devPtr(4*i)
}
