// Package gpu trains simdrl's policy on an NVIDIA GPU: the whole update (task
// and action sampling, the T-step rollout, the environment's scoring, the
// loss, backward through time, the gradient norm, clipping and Adam) runs in
// CUDA kernels over the same flat parameter layout and the same
// counter-based random numbers as the CPU engine; only a few scalars per
// update come back to the host. Engine is a trainer.Engine: the
// trainer.Trainer around it owns the curriculum, the counters and the
// checkpoints, so GPU and CPU checkpoints are the same files. It runs the seed task (its environment in
// CUDA, env.cuh) and every task.Interpreted task, whose op table the kernels
// interpret (calc.cuh); those tasks' instances are drawn on the host by the
// task itself and uploaded as records (internal/record). An Interpreted task
// that observes the calculator's signs (interp.ObserveSigns) has its machine
// stepped inside the rollout's step loop, each next input the action with
// the observation after it (gru.Config.Observations); so does every task on
// the tape's machine (taperules.Ruled: tape.cuh, its own rollout entry
// points, each episode's machine in global memory); other observing tasks
// are refused.
//
// The CUDA driver is loaded at run time with dlopen("libcuda.so.1"): building
// needs a C compiler but no CUDA toolkit or headers. The kernels
// (kernels/*.cu) are compiled to PTX for compute_80 by gen.sh (go generate)
// and embedded (ptx/*.ptx); the driver compiles them for the GPU at load.
// Without cgo, New, Open and Available return an error saying so.
//
// It imports trainer, internal/enginekit, task, env/interp, env/taperules,
// gru, rng and internal/record (its kernels are its own, in CUDA, not kernels/); it must
// not import cpu/ (the engines are siblings; only its tests use cpu/, to
// compare the two) or cmd/.
//
// README.md in this folder explains the design choices.
package gpu

//go:generate go run ./internal/abi/gen
//go:generate sh gen.sh
