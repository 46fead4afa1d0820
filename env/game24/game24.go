// Package game24 is the 24 Game: four values 1..13, combined two at a time
// with + − × ÷ over the rationals (each used once), must make 24. Its pool,
// moves and solver are env/countdown's under the Fractions rules; this
// package lists the solvable multisets and splits them.
package game24

import (
	"fmt"
	"slices"

	"github.com/simdrl/simdrl/env/countdown"
	"github.com/simdrl/simdrl/env/internal/holdout"
)

// The game's constants: four values in 1..13, target 24.
const (
	Numbers  = 4
	MaxValue = 13
	Target   = 24
)

// Hand is a multiset of four values, in ascending order.
type Hand [Numbers]int64

func (h Hand) String() string { return fmt.Sprintf("%d %d %d %d", h[0], h[1], h[2], h[3]) }

// Pool resets p on h under the 24 Game's rules.
func (h Hand) Pool(p *countdown.Pool) {
	p.Reset(countdown.Fractions, h[:], countdown.Int(Target))
}

// Solvable reports whether h makes 24 (the brute-force solver).
func (h Hand) Solvable() bool {
	return countdown.SolvableNumbers(countdown.Fractions, h[:], Target, countdown.Restrict{})
}

// NeedsFractions reports whether every way h makes 24 passes through a
// value that is not an integer.
func (h Hand) NeedsFractions() bool {
	return !countdown.SolvableNumbers(countdown.Fractions, h[:], Target, countdown.Restrict{WholeOnly: true})
}

// NeedsMulDiv reports whether every way h makes 24 multiplies or divides.
func (h Hand) NeedsMulDiv() bool {
	return !countdown.SolvableNumbers(countdown.Fractions, h[:], Target, countdown.Restrict{NoMulDiv: true})
}

// Hands lists every multiset of four values 1..13 (1,820), in ascending
// lexicographic order.
func Hands() []Hand {
	var out []Hand
	for a := int64(1); a <= MaxValue; a++ {
		for b := a; b <= MaxValue; b++ {
			for c := b; c <= MaxValue; c++ {
				for d := c; d <= MaxValue; d++ {
					out = append(out, Hand{a, b, c, d})
				}
			}
		}
	}
	return out
}

// Split is the solvable hands, split once and for all: a fifth held out
// (internal/holdout's rule on their spelling: a disjoint set of multisets),
// the rest to train on; each part in ascending order.
type Split struct {
	Training, HeldOut []Hand
}

// NewSplit solves every hand and splits the solvable ones
// (countdowntask's BenchmarkBuild).
func NewSplit() Split {
	var solvable []Hand
	var keys []string
	for _, h := range Hands() {
		if h.Solvable() {
			solvable = append(solvable, h)
			keys = append(keys, h.String())
		}
	}
	held := make([]bool, len(solvable))
	for _, i := range holdout.Lowest(keys) {
		held[i] = true
	}
	var s Split
	for i, h := range solvable {
		if held[i] {
			s.HeldOut = append(s.HeldOut, h)
		} else {
			s.Training = append(s.Training, h)
		}
	}
	return s
}

// Contains reports whether hand h is in hands (sorted ascending).
func Contains(hands []Hand, h Hand) bool {
	_, ok := slices.BinarySearchFunc(hands, h, func(a, b Hand) int { return slices.Compare(a[:], b[:]) })
	return ok
}
