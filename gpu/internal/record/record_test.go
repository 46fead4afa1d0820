package record

import (
	"math/rand/v2"
	"testing"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// randomInstance is an instance of the interpreted machine with random
// fields, negative int64 values and all: its context its operands' digits
// (as calc and the seed show them) or, when shown, tokens of its own (as
// expr's expression).
func randomInstance(r *rand.Rand, shown bool) task.Instance {
	in := task.Instance{Level: r.Int32(), Budget: r.Int32(), Item: r.Int32() - r.Int32()}
	o := interp.Operands{Vars: r.Int32N(interp.MaxDigits + 1), Target: r.Int64() - r.Int64(), NInner: r.Int32()}
	for j := range o.Digits {
		o.Digits[j] = r.Int32()
	}
	for j := range o.Inner {
		o.Inner[j] = r.Int64() - r.Int64()
	}
	o.Put(in.Data[:])
	if shown {
		in.NContext = 1 + r.Int32N(MaxShown)
		for j := range in.Context {
			in.Context[j] = r.Int32() - r.Int32()
		}
	} else {
		in.NContext = int32(copy(in.Context[:], o.Digits[:o.Vars]))
	}
	return in
}

// TestRoundTrip: a record holds every field of an instance of the
// interpreted machine, its context (Context[:NContext], what lies past it
// is no part of it) and its operands.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 1000; i++ {
		in := randomInstance(r, i%2 == 0)
		rec := make([]int32, Words+3)
		for j := range rec {
			rec[j] = -1 // Pack clears what it does not write
		}
		Pack(rec, &in)
		want := in
		clear(want.Context[want.NContext:])
		require.Equal(t, want, Unpack(rec))
		require.Equal(t, []int32{-1, -1, -1}, rec[Words:], "Pack writes Words words only")
	}
}

// TestDigitsShownAsDigits: an instance that shows its operands' digits (the
// seed's, calc's) is the record the kernels always read, the digits their
// context (NShown 0); one that shows other tokens has them in Shown.
func TestDigitsShownAsDigits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 100; i++ {
		in := randomInstance(r, false)
		o := interp.Get(in.Data[:])
		rec := make([]int32, Words)
		Pack(rec, &in)
		require.Zero(t, rec[NShown])
		require.Equal(t, o.Vars, rec[Vars])
		require.Equal(t, o.Digits[:], rec[Digits:Digits+interp.MaxDigits])
		require.Equal(t, o.Target, getInt64(rec[Target:]))
		require.Equal(t, make([]int32, MaxShown), rec[Shown:Words])
		in.Context[0]++ // no longer the digits
		if in.NContext == 0 {
			in.NContext = 1
		}
		Pack(rec, &in)
		require.Equal(t, in.NContext, rec[NShown])
		require.Equal(t, in.Context[:in.NContext], rec[Shown:Shown+in.NContext])
	}
}

// TestContextLen: a record's context is as long as the instance's
// (task.Instance.WriteContext), shown tokens or digits.
func TestContextLen(t *testing.T) {
	var ctx [task.MaxContext + 1]int32
	for _, c := range []struct{ vars, shown int32 }{{3, 0}, {0, 0}, {8, 0}, {2, 5}, {8, MaxShown}, {0, 1}} {
		in := task.Instance{NContext: c.vars}
		o := interp.Operands{Vars: c.vars}
		for j := range o.Digits {
			o.Digits[j] = int32(j)
		}
		o.Put(in.Data[:])
		copy(in.Context[:], o.Digits[:c.vars])
		if c.shown > 0 {
			in.NContext = c.shown
			for j := range in.Context {
				in.Context[j] = int32(30 + j)
			}
		}
		rec := make([]int32, Words)
		Pack(rec, &in)
		require.Equal(t, in.WriteContext(ctx[:], task.CTX)-1, ContextLen(rec), "vars %d shown %d", c.vars, c.shown)
	}
}
