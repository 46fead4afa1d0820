// Package cpu is the CPU engine: it implements trainer.Engine, the driver a
// trainer.Trainer runs, with the model of gru/ on the kernels of kernels/. It owns the chunk workspaces and the
// pool of workers that runs them, the losses (the reference's sum baseline
// and the per-step baseline), Adam with gradient-norm clipping, and the
// estimate of the memory a configuration needs.
//
// The unit of work is a chunk of episodes; a worker processes whole chunks
// and their gradients are summed in chunk order, so results are
// bit-identical for any number of threads.
//
// It imports trainer, internal/enginekit, task, gru, kernels and rng; it must not
// import gpu/ (the engines are siblings) or cmd/.
package cpu
