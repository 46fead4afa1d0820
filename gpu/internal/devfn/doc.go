// Package devfn compiles the CUDA kernels' per-thread device functions
// (../../kernels/*.cuh, written in the common subset of C and CUDA C++) as
// plain C with cgo, so that their arithmetic is checked against the Go
// packages on any machine, GPU or not. It is for tests only.
package devfn
