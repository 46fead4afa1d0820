// Package record is what the CUDA kernels read of a task: task.Instance as a
// record of Words int32 per episode (gpu/kernels/common.cuh, SIMDRL_REC_*;
// devfn's tests compare the two; int64 fields take two words, low then high),
// and the calculator's op table.
package record

import (
	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/task"
)

// Word offsets of the fields.
const (
	Level  = 0
	Vars   = 1
	Budget = 2
	Digits = 3 // task.MaxDigits words
	Target = 12
	NInner = 14
	Inner  = 16 // task.MaxInner int64
	Words  = 48
)

// The record must hold every field of task.Instance: these fail to compile
// when the task package grows past it.
var (
	_ [Target - Digits - task.MaxDigits]struct{}
	_ [Words - Inner - 2*task.MaxInner]struct{}
)

// Pack writes in as a record into dst[:Words].
func Pack(dst []int32, in *task.Instance) {
	dst = dst[:Words]
	clear(dst)
	dst[Level], dst[Vars], dst[Budget] = in.Level, in.Vars, in.Budget
	copy(dst[Digits:], in.Digits[:])
	putInt64(dst[Target:], in.Target)
	dst[NInner] = in.NInner
	for j, v := range in.Inner {
		putInt64(dst[Inner+2*j:], v)
	}
}

// Unpack reads a record.
func Unpack(src []int32) task.Instance {
	in := task.Instance{Level: src[Level], Vars: src[Vars], Budget: src[Budget], Target: getInt64(src[Target:]), NInner: src[NInner]}
	copy(in.Digits[:], src[Digits:Digits+task.MaxDigits])
	for j := range in.Inner {
		in.Inner[j] = getInt64(src[Inner+2*j:])
	}
	return in
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
func OpTable(ops []calc.Op) []int32 {
	table := make([]int32, 0, OpWords*len(ops))
	for _, op := range ops {
		table = append(table, int32(op.Kind), int32(op.Src), int32(op.Dst))
	}
	return table
}
