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
// Three tasks are registered: "seed", the reference script's tool
// environment (package env, bit-exact); "calc", a calculator whose tools do
// what their names say and in which memory is necessary (package env/calc);
// and "expr", calc's machine on a family of expressions that the context
// shows, read by the policy (package env/expr, an Itemized and Unstaged
// task). To add
// a task, implement Task (here or in any module) and Register it by name from
// an init function; Open opens it with its spec, and engines can also take a
// task value directly (cpu.NewWithTask). A task on the calculator's machine
// that also implements Interpreted (its op table) runs on the GPU too.
//
// It imports the environments and rng; never gru, trainer, the engines or
// cmd.
package task
