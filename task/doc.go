// Package task is what the engines see of an environment: a Task has a
// vocabulary, a curriculum of levels (each with its context length and step
// budget), draws an instance of a level from the counter-based stream, and
// plays a program on it: written as a step function (Stepwise: a Game's
// Reset and Step give the observation, reward and done), or as its own batch
// Env (Stepper), or by scoring whole programs (Scorer). Score and Explain
// derive a program's score and explanation by stepping it, unless the task
// has its own (Scorer, Explainer). The model's
// vocabulary, its level embeddings and its rollout length come from the task.
//
// It is the contract only, as database/sql/driver holds no driver: the
// tasks that ship with simdrl are plug-ins of their own (tasks/seedtask,
// tasks/calctask, tasks/exprtask, tasks/tapetask; tasks/builtin imports
// them all) that register exactly as a user's task does. To add a task,
// implement Task in any package and Register it by name from an init
// function; Open opens it with its spec, and engines can also take a task
// value directly (cpu.NewWithTask). A task whose spec has options that a
// command line's flags set registers a SpecEditor too. A task that
// implements Interpreted (an env/interp op table) runs on the GPU too, as
// does one on the reference's machine (SeedMachine).
//
// It imports env/interp and rng; never a concrete task, gru, trainer, the
// engines or cmd.
package task
