package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// sampleRowRef is SampleRows' rule for one row written as a search that
// stops at the answer: the first column whose running sum exceeds u, else
// the last column with p > 0.
func sampleRowRef(row []float32, u float32) int32 {
	var cum float32
	lastPositive := 0
	for j, pj := range row {
		if pj > 0 {
			lastPositive = j
		}
		cum += pj
		if u < cum {
			return int32(j)
		}
	}
	return int32(lastPositive)
}

// sampleRows returns rows×cols probabilities: softmax-like rows, rows with
// zeros, rows that sum a hair below 1, rows with NaN and infinities, and
// the u that go with them, u = 0 and u just below 1 included.
func sampleRows(r *rand.Rand, rows, cols int) (p, u []float32) {
	p, u = make([]float32, rows*cols), make([]float32, rows)
	specials := []float32{0, 0, 0, float32(math.NaN()), float32(math.Inf(1)), 1e-45, 1}
	for i := 0; i < rows; i++ {
		row := p[i*cols : (i+1)*cols]
		var sum float32
		for j := range row {
			row[j] = r.Float32()
			if r.IntN(3) == 0 {
				row[j] = 0
			}
			sum += row[j]
		}
		if kind := i % 5; kind < 3 && sum > 0 {
			for j := range row {
				row[j] /= sum // sums to 1 give or take rounding
			}
		} else if kind == 3 {
			row[r.IntN(cols)] = specials[r.IntN(len(specials))]
		}
		u[i] = r.Float32()
		switch i % 7 {
		case 0:
			u[i] = 0
		case 1:
			u[i] = math.Nextafter32(1, 0)
		}
	}
	return p, u
}

func TestSampleRowsIsTheFirstColumnPastU(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, cols := range []int{1, 2, 3, 7, 18, 19, 33} {
		rows := 4000
		p, u := sampleRows(r, rows, cols)
		out := make([]int32, rows+1)
		out[rows] = -7 // guard
		SampleRows(rows, cols, p, u, out[:rows])
		seen := map[int32]bool{}
		for i := 0; i < rows; i++ {
			want := sampleRowRef(p[i*cols:(i+1)*cols], u[i])
			require.Equalf(t, want, out[i], "cols=%d row %d: p=%v u=%v", cols, i, p[i*cols:(i+1)*cols], u[i])
			seen[out[i]] = true
		}
		require.Equal(t, int32(-7), out[rows], "wrote past out")
		require.Len(t, seen, cols, fmt.Sprintf("cols=%d: every column drawn", cols))
	}
	SampleRows(0, 5, nil, nil, nil)
}

func FuzzSampleRows(f *testing.F) {
	f.Add(uint64(1), 18, 40)
	f.Fuzz(func(t *testing.T, seed uint64, cols, rows int) {
		cols, rows = 1+int(uint(cols)%64), int(uint(rows)%200)
		p, u := sampleRows(rand.New(rand.NewPCG(seed, 1)), rows, cols)
		out := make([]int32, rows)
		SampleRows(rows, cols, p, u, out)
		for i := range out {
			require.Equal(t, sampleRowRef(p[i*cols:(i+1)*cols], u[i]), out[i])
		}
	})
}

// BenchmarkSampleRows: the seed recipe's step, 192 rows of 18 actions,
// with fresh u from call to call (1024 sets in turn), as in a rollout: with
// the same u every call, the branch predictor learns where each row stops.
func BenchmarkSampleRows(b *testing.B) {
	const rows, cols, sets = 192, 18, 1024
	r := rand.New(rand.NewPCG(1, 2))
	p, u := make([]float32, rows*cols), make([]float32, sets*rows)
	for i := 0; i < rows; i++ { // rows that sum to 1: what the rollout samples
		row := p[i*cols : (i+1)*cols]
		var sum float32
		for j := range row {
			row[j] = r.Float32()
			sum += row[j]
		}
		for j := range row {
			row[j] /= sum
		}
	}
	for i := range u {
		u[i] = r.Float32()
	}
	out := make([]int32, rows)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		SampleRows(rows, cols, p, u[i*rows:(i+1)*rows], out)
		i = (i + 1) % sets
	}
}
