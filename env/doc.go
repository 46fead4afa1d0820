// Package env holds the tasks' worlds, one package each, knowing nothing of
// the model or the contract: seed (the reference's tool environment,
// bit-exact), calc (the calculator: its machine, expressions, curricula and
// their search), expr (a family of expressions on calc's machine), tape
// (a tape machine), countdown (a pool of numbers combined into a target:
// Countdown, and the 24 Game's arithmetic), game24 (the 24 Game's hands),
// and interp (the interpreted machine's op table type, which calc's tables
// are written in and the GPU's kernels read); expr, tape and game24 hold
// out members by one rule, internal/holdout's. The task plug-ins
// of package tasks wrap them.
package env
