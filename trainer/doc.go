// Package trainer is the engine-neutral part of training: the loop (Drive),
// the configuration and its recipes, the curriculum, the evaluation rounds
// and explanations, the report, the checkpoint format and the parameter
// hash. It defines Engine, which the CPU engine (cpu/) and the GPU engine
// (gpu/) implement, and the few things both engines share (the non-finite
// checks, Adam's constants, the layout of a configuration's model).
//
// It imports no engine: cpu/ and gpu/ import it, never the reverse, and it
// knows no command-line flags (errors name Config fields; cmd/ turns them
// into flags). Of the project it imports task, gru, rng and checkpoint only.
package trainer
