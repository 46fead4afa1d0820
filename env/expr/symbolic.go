package expr

import (
	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
)

// RunSymbolic runs program on the machine of the table ops with n symbolic
// operands, as calc.Machine.Apply does with digits, and returns v at its
// first ANS within budget tokens as a polynomial (false when it does not
// answer in time, or uses an op no calculator table has: MUL of a
// register). Every register stays multilinear: an operand is read
// once, and MUL multiplies by an operand not read before. It is exact (no
// sampling): a program computes a polynomial on every operand tuple iff
// RunSymbolic gives that polynomial.
func RunSymbolic(program []int32, ops []interp.Op, n, budget int) (Dense, bool) {
	var v, m Dense
	p := 0
	for i, tok := range program {
		if i >= budget {
			break
		}
		op := calc.OpIn(ops, tok)
		if op.Kind == interp.KindAnswer {
			return v, true
		}
		var src Dense
		switch op.Src {
		case interp.SrcOperand:
			if p >= n {
				continue
			}
			src[1<<p] = 1
			p++
		case interp.SrcV:
			src = v
		case interp.SrcM:
			src = m
		}
		if op.Kind == interp.KindMul && op.Src != interp.SrcOperand {
			return Dense{}, false // a product of registers: not multilinear (no table has one)
		}
		dst := &v
		if op.Dst == interp.RegM {
			dst = &m
		}
		switch op.Kind {
		case interp.KindSet:
			*dst = src
		case interp.KindAdd:
			for j := range dst {
				dst[j] += src[j]
			}
		case interp.KindSub:
			for j := range dst {
				dst[j] -= src[j]
			}
		case interp.KindSubFrom:
			for j := range dst {
				dst[j] = src[j] - dst[j]
			}
		case interp.KindNeg:
			for j := range dst {
				dst[j] = -src[j]
			}
		case interp.KindSwap:
			if op.Src == interp.SrcM {
				v, m = m, v
			}
		case interp.KindMul:
			// src is one operand (the machine multiplies only by operands):
			// a monomial times the leaf it holds.
			var out Dense
			for j, c := range dst {
				if c == 0 {
					continue
				}
				for k, x := range src {
					if x != 0 {
						out[j|k] += c * x // k is a leaf not in j: still multilinear
					}
				}
			}
			*dst = out
		}
	}
	return Dense{}, false
}
