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
		in := task.Instance{Level: r.Int32(), Vars: r.Int32(), Budget: r.Int32(), Target: r.Int64() - r.Int64(), NInner: r.Int32(),
			Item: r.Int32() - r.Int32(), NShown: r.Int32() - r.Int32()}
		for j := range in.Digits {
			in.Digits[j] = r.Int32()
		}
		for j := range in.Inner {
			in.Inner[j] = r.Int64() - r.Int64()
		}
		for j := range in.Shown {
			in.Shown[j] = r.Int32() - r.Int32()
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

// TestContextLen: a record's context is its shown tokens when it has any,
// else its digits, as task.Instance.Context says.
func TestContextLen(t *testing.T) {
	var ctx [task.MaxShown + 1]int32
	for _, c := range []struct{ vars, shown int32 }{{3, 0}, {0, 0}, {8, 0}, {2, 5}, {8, 24}, {0, 1}} {
		in := task.Instance{Vars: c.vars, NShown: c.shown}
		for j := range in.Shown {
			in.Shown[j] = int32(j)
		}
		rec := make([]int32, Words)
		Pack(rec, &in)
		require.Equal(t, in.Context(ctx[:], task.CTX)-1, ContextLen(rec), "vars %d shown %d", c.vars, c.shown)
	}
}
