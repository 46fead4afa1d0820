package interp

import "fmt"

// MaxDigits is the most operands (context digits) an instance of the
// interpreted machine, or the reference's, holds; MaxInner the most inner
// values it carries for partial credit.
const (
	MaxDigits = 8
	MaxInner  = 16
)

// Word offsets of Operands in an instance's data words (task.Instance.Data),
// one int64 word per field.
const (
	wordVars   = 0
	wordDigits = 1
	wordTarget = wordDigits + MaxDigits
	wordNInner = wordTarget + 1
	wordInner  = wordNInner + 1
	// DataWords is the number of data words Operands takes.
	DataWords = wordInner + MaxInner
)

// Operands is what the interpreted machine (and the reference's) reads of
// an instance, kept in its data words (task.Instance.Data): the digits its
// operand source consumes, as numbers, the answer's target and the inner
// values that earn partial credit. The CUDA kernels read the same fields
// from their record (gpu/internal/record).
type Operands struct {
	Vars   int32            // the digits the machine reads, Digits[:Vars]
	Digits [MaxDigits]int32 // 0..9 each (Check)
	Target int64            // what a correct answer holds
	NInner int32            // Inner[:NInner] are held for partial credit
	Inner  [MaxInner]int64
}

// Get reads the operands from data (at least DataWords long).
func Get(data []int64) Operands {
	data = data[:DataWords]
	o := Operands{Vars: int32(data[wordVars]), Target: data[wordTarget], NInner: int32(data[wordNInner])}
	for i := range o.Digits {
		o.Digits[i] = int32(data[wordDigits+i])
	}
	copy(o.Inner[:], data[wordInner:])
	return o
}

// Put writes the operands into data[:DataWords].
func (o *Operands) Put(data []int64) {
	data = data[:DataWords]
	data[wordVars], data[wordTarget], data[wordNInner] = int64(o.Vars), o.Target, int64(o.NInner)
	for i, d := range o.Digits {
		data[wordDigits+i] = int64(d)
	}
	copy(data[wordInner:], o.Inner[:])
}

// Check refuses data whose operands the machine cannot read: more digits or
// inner values than it holds, a digit that is not one (the machine reads
// them as numbers, and so do the kernels).
func Check(data []int64) error {
	data = data[:DataWords]
	switch vars, inner := data[wordVars], data[wordNInner]; {
	case vars < 0 || vars > MaxDigits:
		return fmt.Errorf("instance shows %d digits (0..%d)", vars, MaxDigits)
	case inner < 0 || inner > MaxInner:
		return fmt.Errorf("instance has %d inner values (0..%d)", inner, MaxInner)
	}
	for _, d := range data[wordDigits : wordDigits+data[wordVars]] {
		if d < 0 || d > 9 {
			return fmt.Errorf("instance digit %d is not a digit (0..9)", d)
		}
	}
	return nil
}
