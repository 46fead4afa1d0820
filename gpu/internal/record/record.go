// Package record is what the CUDA kernels read of a task: task.Instance as a
// record of Words int32 per episode (gpu/kernels/common.cuh, SIMDRL_REC_*;
// devfn's tests compare the two; int64 fields take two words, low then high),
// and the calculator's op table.
package record

import (
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/task"
)

// Word offsets of the fields. Item, NShown and Shown came after the others,
// and follow them, so that the earlier offsets stay.
const (
	Level  = 0
	Vars   = 1
	Budget = 2
	Digits = 3 // task.MaxDigits words
	Target = 12
	NInner = 14
	Inner  = 16 // task.MaxInner int64
	Item   = 48
	NShown = 49
	Shown  = 50 // task.MaxShown words
	Words  = 74
)

// The record must hold every field of task.Instance: these fail to compile
// when the task package grows past it.
var (
	_ [Target - Digits - task.MaxDigits]struct{}
	_ [Item - Inner - 2*task.MaxInner]struct{}
	_ [Words - Shown - task.MaxShown]struct{}
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
	dst[Item], dst[NShown] = in.Item, in.NShown
	copy(dst[Shown:], in.Shown[:])
}

// Unpack reads a record.
func Unpack(src []int32) task.Instance {
	in := task.Instance{Level: src[Level], Vars: src[Vars], Budget: src[Budget], Target: getInt64(src[Target:]), NInner: src[NInner],
		Item: src[Item], NShown: src[NShown]}
	copy(in.Digits[:], src[Digits:Digits+task.MaxDigits])
	for j := range in.Inner {
		in.Inner[j] = getInt64(src[Inner+2*j:])
	}
	copy(in.Shown[:], src[Shown:Shown+task.MaxShown])
	return in
}

// ContextLen is the number of context tokens a record shows, the end not
// counted: NShown when positive, else Vars (task.Instance.Context; the
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
