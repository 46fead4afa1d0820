// Package countdown is the world of Countdown (Stream of Search's rules) and
// of the 24 Game's arithmetic (package env/game24): a pool of numbers that a
// player combines two at a time with + − × ÷ until a pool value is the
// target, undoing moves to search.
//
// The pool keeps its slots: combining slots i < j writes the result into i
// and empties j, so a slot's index names the same number until it is used.
// A move is a token: pair p of the lexicographic pairs (i, j), i < j, times
// the six operations (a+b, a−b, b−a, a×b, a÷b, b÷a with a in slot i), then
// UNDO, which restores the two slots of the last move.
//
// Countdown's rules (Integers): every intermediate is a non-negative
// integer and a division is exact. The 24 Game's (Fractions): any rational,
// no division by zero. Under both, each number is used at most once, and
// the pool is solved when every number has been combined into one value
// equal to the target (Stream of Search's and the 24 Game's rule: each
// number used exactly once). Under the no-revisit rule
// (Pool.ForbidRevisits), a combination into a pool of values the episode
// has already reached is refused too, as a search's closed list skips it.
//
// It imports only the standard library and rng, and knows nothing of the
// model or the task contract.
package countdown
