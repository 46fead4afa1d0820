// Package record is what the CUDA kernels read of a task: a task.Instance
// as a record of Words int32 per episode (gpu/kernels/common.cuh,
// SIMDRL_REC_*; devfn's tests compare the two; int64 fields take two words,
// low then high), and the calculator's op table. The record holds the
// instance's level, budget, item and context, and its data as the
// interpreted machine reads them (interp.Operands: Pack, for
// task.Interpreted and task.SeedMachine) or as they are (PackData, for the
// tape's machine, taperules.Ruled).
package record

import (
	"slices"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/task"
)

// Word offsets of the fields. Item, NShown and Shown came after the others,
// and follow them, so that the earlier offsets stay. Shown is the context
// when it is not the digits (NShown > 0), else the digits are: at most
// MaxShown tokens (SIMDRL_MAX_SHOWN), not task.MaxContext; the GPU engine
// refuses a task whose levels show more (gpu's scorerOf).
const (
	Level  = 0
	Vars   = 1
	Budget = 2
	Digits = 3 // interp.MaxDigits words
	Target = 12
	NInner = 14
	Inner  = 16 // interp.MaxInner int64
	Item   = 48
	NShown = 49
	Shown  = 50 // MaxShown words
	Words  = 74

	MaxShown = 24
)

// The record must hold every field it is written from: these fail to
// compile when the task or interp packages grow past it.
var (
	_ [Target - Digits - interp.MaxDigits]struct{}
	_ [Item - Inner - 2*interp.MaxInner]struct{}
	_ [Words - Shown - MaxShown]struct{}
)

// Pack writes in as a record into dst[:Words]: its data as interp.Operands,
// and its context as the shown tokens unless it is the operands' digits
// (then the kernels read those, NShown 0); in passes task.Check for a task
// the engine took, so its context fits (at most MaxShown tokens). An empty
// context with digits cannot be written (the kernels would read the
// digits): no interpreted task draws one.
func Pack(dst []int32, in *task.Instance) {
	dst = dst[:Words]
	clear(dst)
	o := interp.Get(in.Data[:])
	dst[Level], dst[Vars], dst[Budget] = in.Level, o.Vars, in.Budget
	copy(dst[Digits:], o.Digits[:])
	putInt64(dst[Target:], o.Target)
	dst[NInner] = o.NInner
	for j, v := range o.Inner {
		putInt64(dst[Inner+2*j:], v)
	}
	dst[Item] = in.Item
	if !digitsShown(in, &o) {
		dst[NShown] = in.NContext
		copy(dst[Shown:Shown+MaxShown], in.Context[:in.NContext])
	}
}

// Data is where PackData writes an instance's data, MaxData int64 words
// from word Data (in place of the digits, target and inner values): the
// record of a task whose machine is not the calculator's (the tape's).
const (
	Data    = Digits
	MaxData = (Item - Data) / 2
)

// PackData writes in as a record into dst[:Words] with its data as they
// are, Data[:MaxData] (the tape's machine reads them, tape.cuh), and its
// context as the shown tokens (as Pack's, at most MaxShown); vars is 0.
func PackData(dst []int32, in *task.Instance) {
	dst = dst[:Words]
	clear(dst)
	dst[Level], dst[Budget], dst[Item] = in.Level, in.Budget, in.Item
	for j, v := range in.Data[:MaxData] {
		putInt64(dst[Data+2*j:], v)
	}
	dst[NShown] = in.NContext
	copy(dst[Shown:Shown+MaxShown], in.Context[:in.NContext])
}

// digitsShown reports whether in's context is its operands' digits.
func digitsShown(in *task.Instance, o *interp.Operands) bool {
	return in.NContext == o.Vars && o.Vars >= 0 && o.Vars <= interp.MaxDigits &&
		slices.Equal(in.Context[:in.NContext], o.Digits[:o.Vars])
}

// Unpack reads a record.
func Unpack(src []int32) task.Instance {
	in := task.Instance{Level: src[Level], Budget: src[Budget], Item: src[Item]}
	o := interp.Operands{Vars: src[Vars], Target: getInt64(src[Target:]), NInner: src[NInner]}
	copy(o.Digits[:], src[Digits:Digits+interp.MaxDigits])
	for j := range o.Inner {
		o.Inner[j] = getInt64(src[Inner+2*j:])
	}
	o.Put(in.Data[:])
	if n := src[NShown]; n > 0 {
		in.NContext = n
		copy(in.Context[:], src[Shown:Shown+MaxShown])
	} else {
		in.NContext = o.Vars
		copy(in.Context[:], o.Digits[:max(0, min(o.Vars, interp.MaxDigits))])
	}
	return in
}

// ContextLen is the number of context tokens a record shows, the end not
// counted: NShown when positive, else Vars (task.Instance.NContext; the
// kernels' simdrl_rec_ctx_len).
func ContextLen(rec []int32) int {
	if n := rec[NShown]; n > 0 {
		return int(n)
	}
	return int(rec[Vars])
}

func putInt64(dst []int32, v int64) {
	dst[0], dst[1] = int32(uint32(uint64(v))), int32(uint32(uint64(v)>>32))
}

func getInt64(src []int32) int64 {
	return int64(uint64(uint32(src[0])) | uint64(uint32(src[1]))<<32)
}

// OpWords is the number of int32 per token in an op table.
const OpWords = 3

// OpTable is an instruction table as the kernels read it (calc.cuh): kind,
// source and destination of each token's op.
func OpTable(ops []interp.Op) []int32 {
	table := make([]int32, 0, OpWords*len(ops))
	for _, op := range ops {
		table = append(table, int32(op.Kind), int32(op.Src), int32(op.Dst))
	}
	return table
}
