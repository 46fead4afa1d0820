package record

import (
	"math/rand/v2"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// TestRoundTrip: a record holds every field of an instance, negative int64
// values and all.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 1000; i++ {
		in := task.Instance{Level: r.Int32(), Vars: r.Int32(), Budget: r.Int32(), Target: r.Int64() - r.Int64(), NInner: r.Int32()}
		for j := range in.Digits {
			in.Digits[j] = r.Int32()
		}
		for j := range in.Inner {
			in.Inner[j] = r.Int64() - r.Int64()
		}
		rec := make([]int32, Words+3)
		for j := range rec {
			rec[j] = -1 // Pack clears what it does not write
		}
		Pack(rec, &in)
		require.Equal(t, in, Unpack(rec))
		require.Equal(t, []int32{-1, -1, -1}, rec[Words:], "Pack writes Words words only")
	}
}
