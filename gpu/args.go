package gpu

import (
	"fmt"
	"math"

	"github.com/simdrl/simdrl/gpu/internal/abi"
)

// args packs a kernel's parameters for cuLaunchKernel: each value in its own
// 8-byte slot, little-endian, and kernelParams[i] points at slot i. The
// driver reads from each pointer as many bytes as the kernel's i-th parameter
// has, so a 4-byte int reads the slot's low half. Device pointers are
// uint64 (CUdeviceptr). Each value is packed under its parameter's name, and
// every launch checks names and kinds against gpu/internal/abi's table
// (follows), the one the kernels' args.cuh is generated from.
type args struct {
	slots []uint64
	kinds []byte   // 'p' pointer, 'i' int32, 'u' uint32, 'f' float32, 'd' float64 (abi.Kind)
	names []string // the parameters' names, in the table's spelling
}

func (a *args) reset() *args {
	a.slots, a.kinds, a.names = a.slots[:0], a.kinds[:0], a.names[:0]
	return a
}

func (a *args) add(name string, v uint64, k byte) *args {
	a.slots = append(a.slots, v)
	a.kinds = append(a.kinds, k)
	a.names = append(a.names, name)
	return a
}

func (a *args) ptr(name string, p devPtr) *args { return a.add(name, uint64(p), 'p') }
func (a *args) i32(name string, v int) *args    { return a.add(name, uint64(uint32(int32(v))), 'i') }
func (a *args) u32(name string, v uint32) *args { return a.add(name, uint64(v), 'u') }
func (a *args) f32(name string, v float32) *args {
	return a.add(name, uint64(math.Float32bits(v)), 'f')
}
func (a *args) f64(name string, v float64) *args { return a.add(name, math.Float64bits(v), 'd') }
func (a *args) flag(name string, v bool) *args {
	if v {
		return a.i32(name, 1)
	}
	return a.i32(name, 0)
}

// follows says how the packed values differ from kernel's parameters in the
// ABI table (nil: same names, same kinds, same count); it allocates nothing
// when they agree, since every launch checks it.
func (a *args) follows(kernel string) error {
	k := abi.Of(kernel)
	if k == nil {
		return fmt.Errorf("gpu: kernel %s is not in the ABI table (gpu/internal/abi)", kernel)
	}
	for i, p := range k.Params {
		want, err := abi.Kind(p.C)
		if err != nil {
			return err
		}
		if i >= len(a.names) {
			return fmt.Errorf("gpu: launching %s: parameter %d (%s) not packed (gpu/internal/abi's table has %d, the host packed %d)", kernel, i, p.Decl(), len(k.Params), len(a.names))
		}
		if a.names[i] != p.Name || a.kinds[i] != want {
			return fmt.Errorf("gpu: launching %s: parameter %d is %s (kind %c) in gpu/internal/abi's table, the host packed %s (kind %c)", kernel, i, p.Decl(), want, a.names[i], a.kinds[i])
		}
	}
	if len(a.names) > len(k.Params) {
		return fmt.Errorf("gpu: launching %s: the host packed %d parameters (extra: %s), gpu/internal/abi's table has %d", kernel, len(a.names), a.names[len(k.Params)], len(k.Params))
	}
	return nil
}

// matches reports whether the packed values have the parameter sizes sig
// spells (ptxInfo.Params: '8' for pointers and float64, '4' otherwise); it
// allocates nothing, since every launch checks it.
func (a *args) matches(sig string) bool {
	if len(a.kinds) != len(sig) {
		return false
	}
	for i, k := range a.kinds {
		if int(sig[i]-'0') != abi.Width(k) {
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
		b[i] = byte('0' + abi.Width(k))
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
