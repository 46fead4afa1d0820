package calc

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
// an operand when all n are consumed does nothing. KindAnswer changes nothing
// here; the caller ends the episode.
func (s *Machine) Apply(op Op, operands *[MaxVars]int32, n int32) {
	var src int64
	switch op.Src {
	case SrcOperand:
		if s.P >= n {
			return
		}
		src = int64(operands[s.P])
		s.P++
	case SrcV:
		src = s.V
	case SrcM:
		src = s.M
	}
	dst := &s.V
	if op.Dst == RegM {
		dst = &s.M
	}
	switch op.Kind {
	case KindSet:
		*dst = src
	case KindAdd:
		*dst += src
	case KindSub:
		*dst -= src
	case KindMul:
		*dst *= src
	case KindSubFrom:
		*dst = src - *dst
	}
}
