package calc

import "github.com/simdrl/simdrl/rng"

// The search tells programs apart by what they do on a fixed set of probe
// contexts: 48 drawn from the counter-based stream under a fixed key, plus
// edge cases where a wrong program most easily looks right (zeros, ones,
// equal digits, alternating extremes).
const (
	probeRandom = 48
	NumProbes   = probeRandom + len(probeEdges)
)

var probeEdges = [...][MaxVars]int32{
	{0, 0, 0, 0, 0, 0, 0, 0},
	{1, 1, 1, 1, 1, 1, 1, 1},
	{9, 9, 9, 9, 9, 9, 9, 9},
	{5, 5, 5, 5, 5, 5, 5, 5},
	{0, 9, 0, 9, 0, 9, 0, 9},
	{9, 0, 9, 0, 9, 0, 9, 0},
	{1, 2, 3, 4, 5, 6, 7, 8},
	{9, 8, 7, 6, 5, 4, 3, 2},
}

// probeKey and verifyKey are fixed so that the search is the same everywhere.
var (
	probeKey  = rng.NewKey(0xca1c_0001)
	verifyKey = rng.NewKey(0xca1c_0002)
)

var probes = makeProbes()

func makeProbes() (p [NumProbes][MaxVars]int32) {
	for i := 0; i < probeRandom; i++ {
		w0 := probeKey.Block(0, uint32(i), 0, rng.PurposeTask)
		w1 := probeKey.Block(0, uint32(i), 1, rng.PurposeTask)
		for j := 0; j < 4; j++ {
			p[i][j] = int32(rng.Below(w0[j], 10))
			p[i][4+j] = int32(rng.Below(w1[j], 10))
		}
	}
	copy(p[probeRandom:], probeEdges[:])
	return p
}
