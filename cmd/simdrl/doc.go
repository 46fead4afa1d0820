// Command simdrl trains the GRU actor-critic tool-use agent with batched
// REINFORCE and a value baseline, in pure Go.
//
//	simdrl                           # the default recipe
//	simdrl -recipe seed              # seed.py's schedule and loss exactly
//	simdrl -device cpu -threads 16 -report run.json
//
// It is the only package that knows command-line flags, devices and output
// paths: it turns flags into a trainer.Config, opens its task and the engine
// named by -device from its engines table (cpu.NewWithTask,
// gpu.NewWithTask), wraps it in a trainer.Trainer (restoring or loading a
// checkpoint), hands that to trainer.Drive, and writes the checkpoint, report, metrics and plot through
// internal/atomicfile. Nothing imports it.
package main
