package calc

import "github.com/simdrl/simdrl/env/interp"

// Machine is the calculator's whole state: the value register v, one memory
// slot m, and the operand pointer p (how many context digits the arithmetic
// tools have consumed). The zero Machine is the start state: v = m = 0, p = 0.
//
// Arithmetic is int64 and cannot overflow: a level's budget is at most
// MaxBudget (16) tokens, each digit is at most 9, and no tool more than
// multiplies a magnitude by 9 (MUL), doubles it (M+V, M−V) or adds 9 (ADD,
// SUB), so |v|, |m| ≤ 9^16 ≈ 1.9e15 < 2^63.
type Machine struct {
	V, M int64
	P    int32
}

// Apply executes one op on the machine with the context digits operands[:n].
// It is the only interpreter of the op table: Run, Trace and Search all step
// through it, and its control flow (read the source, then a switch over the
// kind, on int64 registers) is what a CUDA kernel writes too. An op that needs
// an operand when all n are consumed does nothing. interp.KindAnswer changes nothing
// here; the caller ends the episode.
func (s *Machine) Apply(op interp.Op, operands *[MaxVars]int32, n int32) {
	var src int64
	switch op.Src {
	case interp.SrcOperand:
		if s.P >= n {
			return
		}
		src = int64(operands[s.P])
		s.P++
	case interp.SrcV:
		src = s.V
	case interp.SrcM:
		src = s.M
	}
	dst := &s.V
	if op.Dst == interp.RegM {
		dst = &s.M
	}
	switch op.Kind {
	case interp.KindSet:
		*dst = src
	case interp.KindAdd:
		*dst += src
	case interp.KindSub:
		*dst -= src
	case interp.KindMul:
		*dst *= src
	case interp.KindSubFrom:
		*dst = src - *dst
	case interp.KindNeg:
		*dst = -src
	case interp.KindSwap:
		// The source's register gets the destination's old value.
		if op.Src == interp.SrcM {
			s.M, *dst = *dst, src
		} else if op.Src == interp.SrcV {
			s.V, *dst = *dst, src
		}
	}
}

// NumObservations is the size of the sign observation's vocabulary
// (interp.ObserveSigns).
const NumObservations = interp.SignObservations

// StartObservation is the observation of the start machine (v = m = 0).
const StartObservation = 4

// Observe is what the policy of a branching level sees after a token (and,
// as StartObservation, before the first): the signs of v and of v − m,
// o = 3·(sgn v + 1) + (sgn(v − m) + 1), in 0..8. Signs, not values, so that
// the observation vocabulary stays small and a policy must still compute:
// it learns only which branch of an abs, max or min it is in.
func (s *Machine) Observe() int32 {
	return 3*(sign(s.V)+1) + sign(s.V-s.M) + 1
}

func sign(x int64) int32 {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

var observationNames = [NumObservations]string{
	"v<0 v<m", "v<0 v=m", "v<0 v>m",
	"v=0 v<m", "v=0 v=m", "v=0 v>m",
	"v>0 v<m", "v>0 v=m", "v>0 v>m",
}

// ObservationName spells a sign observation (Observe) for people, "v<0 v<m"
// … "v>0 v>m"; "?" outside 0..8.
func ObservationName(obs int32) string {
	if obs < 0 || obs >= NumObservations {
		return "?"
	}
	return observationNames[obs]
}
