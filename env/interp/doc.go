// Package interp is the interpreted machine's instruction set as data: an op
// table (Op, one per token: its kind, source and destination) and the kinds
// of observation the machine can give. A task that declares such a table
// (task.Interpreted) runs on the GPU, whose kernels interpret the table
// (gpu/kernels/calc.cuh) with the same switch as env/calc's Machine.Apply;
// env/calc's tables (calc.Ops, calc.BranchOps) are written in it. What the
// machine reads of an instance, its operands, target and inner values, is
// laid out in the instance's data words by Operands.
//
// It imports only the standard library.
package interp
