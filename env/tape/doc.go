// Package tape is the machine and the expression family of the tape task
// (issue 38): the expression lies on a tape that the policy reads through a
// head, and its work in progress lies on two stacks, so that a policy of
// bounded memory, one fixed table from observation to tool (ShuntingYard),
// computes an expression of any size. Its plug-in, tasks/tapetask, wraps
// it; env/taperules is its contract with engines that run the machine
// themselves (the CUDA kernels).
//
// # The machine
//
// A tape holds one expression's tokens: single digits, + − ×, "(" and ")".
// The head starts on the first; past the last is the tape's end. The value
// stack holds at most MaxValues (32) values, the operator stack at most
// MaxOps (64) pending operators and "(" (Dijkstra's shunting-yard keeps the
// pending operators there). The tools:
//
//	PUSHV     the head on a digit: push its value, move on
//	PUSHOP    the head on + − × or "(": push it, move on
//	APPLY     an operator on top: pop it and two values, push left op right
//	POPPAREN  the head on ")" and "(" on top: pop it, move on
//	ANS       the head at the end, no operator pending, one value: answer it
//
// The rules are strict, the probe of issue 38's finding: every token is
// consumed exactly once, by the one tool that takes it, and only those tools
// move the head (no NEXT that skips a token: a skipped token is a count
// kept in h, the shortcut that passed at the trained sizes and failed past
// them); a ")" is passed only by matching its "(", so the brackets' depth
// lives on the operator stack. An invalid tool changes nothing and costs
// its step, as in the probe, except ANS: the first ANS ends the episode
// (every task's answer token ends its program), and an invalid one answers
// nothing. Arithmetic is int64, wrapping as Go's does:
// a product of 32 digits overflows, and every evaluation of the same tree
// wraps alike. The machine never checks precedence: APPLY pops whatever
// is on top, so applying too early computes another expression.
//
// After every step the policy observes the kind of the token under the
// head (a digit, + − × ( ) or the end; a digit's value is the machine's
// business) × the operator stack's top (empty, + − × or "("):
// NumObservations = 7·5 = 35 tokens.
//
// An episode ends at its first ANS or at its budget and pays 1 for the
// target answered, plus a partial credit × the share of the expression's
// operators applied correctly: an APPLY of an operator to exactly its two
// subtrees' values (the machine tracks which subtree each value computes).
//
// Variant gives the machines of issue 38's comparisons: loose rules (the
// NEXT tool, POPPAREN any time), a blind observation (no operator stack
// top), and an unstacked machine whose pending operators are left to h
// (ADD, SUB, MUL in place of APPLY). Its zero value is the machine above.
//
// # Branching
//
// Variant.Branching adds abs, max and min inside expressions, whose right
// branch depends on the operands, with the comparison that decides it
// observed (as calc observes the signs of v and v−m): an expression then
// needs reading, memory and observing at once. A function's name and its
// bracket are one cell (abs( max( min(), its arguments are separated by ","
// and closed by ")". PUSHOP pushes a function as it does "(", and consumes a
// "," when max( or min( is on top; at a ")" with a function on top, KEEP
// keeps the top value (abs: x; max, min: the right argument) and OTHER takes
// the other (abs: −x; max, min: the left); both pop the function and move
// on, so every token is still consumed exactly once. The observation is the
// kind under the head (11: the 7 above and abs( max( min( ,) × the top (14:
// empty, + − × (, and each function with the sign of its comparison: the
// top value's for abs, left − right for max and min, shown only with the
// ")" that resolves it under the head): NumBranchingObservations = 154. ShuntingYardBranching is the fixed table
// that solves every size. A correct resolution counts for partial credit
// as a correct APPLY does.
//
// Variant.Headless leaves the token under the head out of the observation
// (the operator stack's top only): the machine of a policy that has read
// the expression into h before acting.
//
// # The family
//
// A member of size n is a binary tree over n leaves with + − × inside,
// spelled with only the parentheses the tree needs (× binds tighter, all
// operators associate to the left: a−(b−c) and a+(b+c) keep theirs); its
// leaves get digits drawn per episode. Sizes up to ListedLeaves (5) are
// listed in full, Catalan(n−1)·3^(n−1) members: 3, 18, 135 and 1,134.
// Larger sizes are the first DrawnMembers (1,024) distinct draws of a
// grammar (Drawn): an operator uniform over + − × above a left subtree of k
// leaves, k uniform in 1..n−1, and a right one of n−k, from SplitMix64
// seeded by (n, draw).
//
// The branching family (FamilyOf(n, true)): binary nodes over + − × max
// min, each node but a leaf bare or inside abs. Sizes up to
// BranchingListedLeaves (4) are listed in full, Catalan(n−1)·10^(n−1)
// members: 10, 200 and 5,000 (5 leaves would be 140,000); larger sizes are
// the first DrawnMembers distinct draws of DrawnBranching: the operator
// uniform over the five, the node inside abs with probability 1/4. Its
// tapes are at most 5·MaxLeaves−5 cells.
//
// Splits (Parts): at a trained size a fifth of the members, those whose
// spelling hashes lowest (FNV-1a), is held out; a size never trained (the
// length split: train 2–5, evaluate 6, 8, 12, 16, 32) is transfer whole.
package tape
