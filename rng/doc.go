// Package rng provides counter-based random numbers: every draw is a pure
// function of (seed, counter), so any thread, any chunking of the batch and the
// GPU draw the same numbers for the same episode. The counter is (round,
// episode, step, purpose): round is the update (or an evaluation's own round),
// episode the index in the batch, step the token position, and Purpose keeps
// the uses apart (a task's digits, an action's sample, an episode's level, an
// evaluation task's digits). No generator holds state, so there is nothing to
// share, lock or advance, and the number of threads cannot change a result.
//
// The generator is Philox4x32-10 (Salmon et al., "Parallel random numbers: as
// easy as 1, 2, 3", SC'11), the same one cuRAND uses; it is a handful of
// integer multiplies, so a CUDA kernel can reproduce it bit for bit.
//
// It imports nothing of the project (only math/bits).
package rng
