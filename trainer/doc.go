// Package trainer is the engine-neutral part of training: the loop (Drive),
// the configuration and its recipes, the curriculum, the evaluation results
// and explanations, the report and the checkpoint format. It defines Engine,
// which the CPU engine (cpu/) and the GPU engine (gpu/) implement; what else
// both engines share (the non-finite checks, Adam's constants, the parameter
// hash, the layout of a task's model, the evaluation rounds, the
// checkpoint's tensors) is internal/enginekit's, no part of this package's
// API.
//
// It imports no engine: cpu/ and gpu/ import it, never the reverse, and it
// knows no command-line flags (errors name Config fields; cmd/ turns them
// into flags). Of the project it imports internal/enginekit, task, gru, rng
// and checkpoint only.
package trainer
