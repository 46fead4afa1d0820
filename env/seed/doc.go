// Package seed is the seed task's world, the reference's tool environment (ToolEnv in seed.py): a task is a
// few digits and a level; a program of tool tokens is run on it and rewarded.
// It owns the vocabulary, the levels, how a task is drawn (DrawTask) and how
// a program is scored (Run, Trace).
//
// It knows nothing about the model: it imports nothing of the project but
// rng, which draws the tasks' digits.
package seed
