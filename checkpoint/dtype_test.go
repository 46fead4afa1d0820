package checkpoint

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDTypesRoundTrip: a run's state beside the model (failure rates,
// remembered programs, their indices) comes back bit for bit, each tensor
// in its own dtype, extremes included.
func TestDTypesRoundTrip(t *testing.T) {
	f := &File{Metadata: map[string]string{"format": "x"}, Tensors: []Tensor{
		{Name: "w", Shape: []int{2}, Data: []float32{1, -2}},
		{Name: "fail", Shape: []int{5}, DType: F64, F64: []float64{1, 0.1, math.SmallestNonzeroFloat64, math.MaxFloat64, math.Float64frombits(0x7FF8000000000001)}},
		{Name: "program", Shape: []int{2, 2}, DType: I32, I32: []int32{0, -1, math.MaxInt32, math.MinInt32}},
		{Name: "index", Shape: []int{3}, DType: I64, I64: []int64{0, math.MaxInt64, math.MinInt64}},
		{Name: "none", Shape: []int{0}, DType: F64, F64: []float64{}},
	}}
	b, err := Encode(f)
	require.NoError(t, err)
	g, err := Decode(b)
	require.NoError(t, err)
	require.Len(t, g.Tensors, len(f.Tensors))
	for i, w := range f.Tensors {
		got := g.Tensors[i]
		require.Equal(t, w.Name, got.Name)
		require.Equal(t, w.Type(), got.Type(), w.Name)
		require.Equal(t, w.Data, got.Data, w.Name)
		require.Equal(t, w.I32, got.I32, w.Name)
		require.Equal(t, w.I64, got.I64, w.Name)
		require.Equal(t, len(w.F64), len(got.F64), w.Name)
		for j := range w.F64 {
			require.Equal(t, math.Float64bits(w.F64[j]), math.Float64bits(got.F64[j]), "%s[%d]", w.Name, j)
		}
	}
	require.Contains(t, string(b), `"fail":{"dtype":"F64","shape":[5],"data_offsets":[8,48]}`)
}

// TestEncodeRejectsDTypes: a tensor whose values are not in the slice of its
// dtype, or of a dtype simdrl does not write, is refused by name.
func TestEncodeRejectsDTypes(t *testing.T) {
	for _, c := range []struct {
		t    Tensor
		want string
	}{
		{Tensor{Name: "a", Shape: []int{2}, DType: F64, Data: []float32{1, 2}}, "tensor a has shape [2] (2 elements) but 0 values"},
		{Tensor{Name: "b", Shape: []int{1}, DType: "F16", Data: []float32{1}}, "tensor b has dtype F16, not one of F32, F64, I32, I64"},
		{Tensor{Name: "c", Shape: []int{1}, DType: I32, I64: []int64{1}}, "tensor c has shape [1] (1 elements) but 0 values"},
	} {
		_, err := Encode(&File{Tensors: []Tensor{c.t}})
		require.ErrorContains(t, err, c.want)
	}
}

// TestEncodeAndDecodeAgreeOnHeaderSize: the writer never produces a file
// the reader refuses for its header's size (a user's item-focus rates once
// made a 120 MB header that -resume refused): at the limit both accept,
// past it Encode refuses, so no run writes a file it cannot read back. The
// limit is lowered to keep the test small; both sides read the same one.
func TestEncodeAndDecodeAgreeOnHeaderSize(t *testing.T) {
	defer func(m int) { maxHeader = m }(maxHeader)
	maxHeader = 4096
	accepted, refused := 0, 0
	for n := 3900; n < 4200; n++ {
		f := &File{Metadata: map[string]string{"state": strings.Repeat("x", n)}, Tensors: []Tensor{{Name: "w", Shape: []int{1}, Data: []float32{1}}}}
		b, err := Encode(f)
		if err != nil {
			require.ErrorContains(t, err, "more than the 0 MiB a reader accepts")
			refused++
			continue
		}
		_, err = Decode(b)
		require.NoError(t, err, "a file Encode wrote with a metadata value of %d bytes", n)
		accepted++
	}
	require.Positive(t, accepted)
	require.Positive(t, refused)
}
