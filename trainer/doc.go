// Package trainer is the engine-neutral part of training. A Trainer is one
// run: it owns the configuration, the task, the curriculum, the update
// counter and the checkpoint mapping, and drives an Engine, the small
// driver that holds the model on one device (cpu.Engine, gpu.Engine). What
// a user needs:
//
//	cfg := trainer.DefaultRecipe()          // or Recipe(name); WithTask for a task's defaults
//	e, err := cpu.New(cfg)                  // an engine (cpu.NewWithTask for a task value)
//	tr, err := trainer.New(cfg, e.Task(), e)
//	tr.Restore(f) / tr.LoadWeights(f)       // -resume / -load a checkpoint (CheckpointConfig reads its config)
//	rep, err := trainer.Drive(tr, out, opt) // the loop: updates, evaluations, saves (tr.Checkpoint), the report
//
// or tr.Update() step by step. Drive closes the engine; otherwise the
// caller does. Drive renders the run on out as the command does, unless
// opt.Reporter takes its events (started, updated, evaluated, …, finished).
// A program that opens the task itself (Config.OpenTask, which validates
// it) hands it on without validating it again: TaskDefaults,
// Config.ValidateOpened, cpu.NewOpened.
//
// An engine implements Engine: Update runs one update as a Plan says (the
// update number, the curriculum's level or its played levels and cumulative
// weights, the entropy coefficient), Params/SetParams and
// Moments/SetMoments expose the parameters and Adam's state for the
// checkpoint, EvaluateAll and GreedyPrograms play greedily, Backend and
// Describe name it, SetInterrupt and Close end it. What else the engines
// share (the non-finite checks, Adam's constants, the parameter hash, the
// layout of a task's model, the evaluation rounds, the level draw of a
// mixed update, the checkpoint's tensors) is internal/enginekit's, no part
// of this package's API.
//
// It imports no engine: cpu/ and gpu/ import it, never the reverse, and it
// knows no command-line flags (errors name Config fields; cmd/ turns them
// into flags). Of the project it imports internal/enginekit, task, gru, rng
// and checkpoint only.
package trainer
