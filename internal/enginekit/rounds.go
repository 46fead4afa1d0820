package enginekit

import (
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// Rounds of the random stream reserved for evaluation, far from any update
// number, so evaluating never shifts training's numbers. Every engine uses
// them. The periodic evaluation after update u plays round uint32(u)
// (u ≤ trainer.MaxUpdates = 2³⁰), the confirmation after it ConfirmRound(u).
const (
	FinalRound   = 0xFFFFFFF0
	ExplainRound = 0xFFFFFFF1
)

// confirmBit marks a confirmation's round: above every update number (at
// most 2³⁰) and, with u ≤ 2³⁰ added, below FinalRound and ExplainRound.
const confirmBit = 1 << 31

// ConfirmRound is the round of the confirming evaluation after update u:
// its episodes are none of the periodic evaluations', the final one's or
// another confirmation's.
func ConfirmRound(u int) uint32 { return confirmBit | uint32(u) }

// EvalPurpose gives every level its own evaluation task stream.
func EvalPurpose(level int) rng.Purpose { return rng.PurposeEval + rng.Purpose(level<<8) }

// ExplainInstance is the i-th explanation instance of level, the same on
// every engine (held out, like every evaluation).
func ExplainInstance(t task.Task, key rng.Key, level, i int) task.Instance {
	return t.Draw(key, ExplainRound, uint32(i), EvalPurpose(level), level, task.HeldOut)
}
