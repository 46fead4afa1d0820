package rng

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Known-answer vectors from the Random123 distribution (kat_vectors, philox4x32_10).
func TestPhiloxKnownAnswers(t *testing.T) {
	cases := []struct {
		ctr  [4]uint32
		key  [2]uint32
		want [4]uint32
	}{
		{[4]uint32{0, 0, 0, 0}, [2]uint32{0, 0}, [4]uint32{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
		{[4]uint32{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, [2]uint32{0xffffffff, 0xffffffff}, [4]uint32{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
		{[4]uint32{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, [2]uint32{0xa4093822, 0x299f31d0}, [4]uint32{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
	}
	for _, c := range cases {
		require.Equal(t, c.want, Philox4x32(c.ctr, c.key))
	}
}

func TestUniformRangeAndSpread(t *testing.T) {
	k := NewKey(7)
	var sum float64
	const n = 20000
	for i := uint32(0); i < n; i++ {
		u := k.Uniform(3, i, 1, PurposeAction)
		require.GreaterOrEqual(t, u, float32(0))
		require.Less(t, u, float32(1))
		sum += float64(u)
	}
	require.InDelta(t, 0.5, sum/n, 0.01)
	require.NotEqual(t, NewKey(0), NewKey(1))
	require.NotEqual(t, k.Uniform(0, 0, 0, PurposeTask), k.Uniform(0, 0, 0, PurposeAction))
}

func TestBelowCoversRange(t *testing.T) {
	k := NewKey(1)
	seen := map[uint32]int{}
	for i := uint32(0); i < 10000; i++ {
		seen[Below(k.Block(0, i, 0, PurposeTask)[0], 10)]++
	}
	require.Len(t, seen, 10)
	for d, c := range seen {
		require.Less(t, d, uint32(10))
		require.InDelta(t, 1000, c, 150)
	}
}
