package checkpoint

import (
	"encoding/binary"
	"math"
)

// DType is a tensor's element type, as safetensors spells it. The model and
// Adam's moments are F32 (what PyTorch's modules hold); a run's other state,
// which grows with the task (an item's failure rate, a remembered program),
// is kept exactly: F64 for float64 values, I32 for tokens, I64 for indices.
type DType string

const (
	F32 DType = "F32" // Tensor.Data; the zero DType means F32
	F64 DType = "F64" // Tensor.F64
	I32 DType = "I32" // Tensor.I32
	I64 DType = "I64" // Tensor.I64
)

// size is the bytes of one element, 0 for a dtype simdrl does not hold.
func (d DType) size() int {
	switch d {
	case F32, I32:
		return 4
	case F64, I64:
		return 8
	}
	return 0
}

// element names one value of d in Go's words, for error messages.
func (d DType) element() string {
	switch d {
	case F64:
		return "float64"
	case I32:
		return "int32"
	case I64:
		return "int64"
	}
	return "float32"
}

// Type is t's dtype (F32 when DType is empty).
func (t *Tensor) Type() DType {
	if t.DType == "" {
		return F32
	}
	return t.DType
}

// Len is the number of values t holds, in the slice of its dtype.
func (t *Tensor) Len() int {
	switch t.Type() {
	case F64:
		return len(t.F64)
	case I32:
		return len(t.I32)
	case I64:
		return len(t.I64)
	}
	return len(t.Data)
}

// appendData appends t's values to out, little-endian.
func (t *Tensor) appendData(out []byte) []byte {
	switch t.Type() {
	case F64:
		for _, v := range t.F64 {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
		}
	case I32:
		for _, v := range t.I32 {
			out = binary.LittleEndian.AppendUint32(out, uint32(v))
		}
	case I64:
		for _, v := range t.I64 {
			out = binary.LittleEndian.AppendUint64(out, uint64(v))
		}
	default:
		for _, v := range t.Data {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
		}
	}
	return out
}

// setData fills t's slice of its dtype from b, little-endian.
func (t *Tensor) setData(b []byte) {
	n := len(b) / t.Type().size()
	switch t.Type() {
	case F64:
		t.F64 = make([]float64, n)
		for j := range t.F64 {
			t.F64[j] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:]))
		}
	case I32:
		t.I32 = make([]int32, n)
		for j := range t.I32 {
			t.I32[j] = int32(binary.LittleEndian.Uint32(b[4*j:]))
		}
	case I64:
		t.I64 = make([]int64, n)
		for j := range t.I64 {
			t.I64[j] = int64(binary.LittleEndian.Uint64(b[8*j:]))
		}
	default:
		t.Data = make([]float32, n)
		for j := range t.Data {
			t.Data[j] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))
		}
	}
}
