// Package expr is the expression family of the expr task: the policy reads
// an expression (its tokens are the context) and writes a program of
// calc's tools that computes it on operands it never sees (the machine's
// digits, as in package calc). It owns the family, the search that proves
// each member's shortest program, the generated table of both, the context
// vocabulary and the splits; package task wraps it (task/expr.go). It
// imports calc and the standard library only.
//
// # The family
//
// The candidates of size n are every binary tree whose leaves are a, b, c,
// … in order, each once, with + − × inside (Catalan(n−1)·3^(n−1) trees: 10
// 206 of 6 leaves), deduplicated by value: the polynomial expanded exactly
// (every tree polynomial is multilinear, its coefficients ±1). Each
// polynomial keeps one representative tree, the one spelled with the fewest
// tokens with minimal parentheses (× binds tighter, all operators associate
// to the left: a−(b−c) keeps its parentheses, a−b−c needs none), then the
// lexicographically smallest spelling; so a+(b+c) is a+b+c and a−(b−c) is
// a−b+c. The members are the candidates that a program of the 19-token
// machine (calc.Ops: LOAD ADD SUB MUL STO M+V M−V ANS, one register v,
// one memory m, the operands read in order) computes within calc.MaxBudget
// (16) tokens, ANS included. A member's budget is its shortest length plus
// calc.BudgetSlack (2), at most 16.
//
// # The search and why its lengths are shortest
//
// Search runs one breadth-first search per size over the machine's states
// (p, v, m) for all the candidates at once, each state told apart by the
// values of v and m at two fixed points modulo the prime 2^61−1 (its
// fingerprint) and the leaves that flow into each register. Layers up to
// StoreDepth (12 tokens) are stored, each state once; beyond, the search
// goes on depth first, skipping states stored before. It expands no state
// that cannot read its remaining operands and answer within the budget, that
// has lost a leaf it read (no target then follows: every candidate depends
// on all its leaves), nor a tool that reads an operand when none is left.
//
// The fingerprint map commutes with every tool, so the search visits the
// fingerprint of every program: a program it reports for a target is at
// most as long as the target's shortest one, whatever collisions merged.
// The generator (internal/gentable) then verifies every reported program
// exactly, by running the machine on symbolic operands (RunSymbolic), and
// with calc.Computes on every digit tuple up to 6 leaves (200 000 tuples of
// 7): a verified program computes its target, so it is a shortest one, and
// a candidate the search reports nothing for has no program within 16
// tokens. No verification has failed (a failure would stop the generator).
//
// Exactness also makes verifying cheap: the machine's answer is always a
// polynomial of degree at most one in each operand (each operand is read
// once, MUL multiplies by an operand not read before), as is an expression,
// and two such polynomials that agree on the 2^n tuples of zeros and ones
// are equal. task's Verify checks those tuples (plus 64 fixed ones).
//
// The search for 7 leaves stores 7 791 543 states, and with the Computes
// checks it takes minutes (docs/performance.md, "Searches and generated
// tables"): too slow for package init or a test, so the members are a
// generated table (table.go; "go generate ./env/expr" regenerates it, and
// CI checks that it leaves no diff). The tests regenerate sizes 2–5 in memory
// and compare, check every entry symbolically, and pin the counts against
// an independent brute force on calc's own machine: every program of at most
// 9 tokens up to 4 leaves, and a breadth-first search on exact states to 16
// tokens up to 3 leaves. The table is loaded on first use, not at package
// init.
//
//	n  candidates  members  shortest lengths (members)               longest context  states stored
//	2           3        3  3 (3)                                    3                5 405
//	3          13       11  4 (9), 6 (2)                             7                49 227
//	4          69       45  5 (27), 7 (18)                           9                287 941
//	5         409      193  6 (81), 8 (108), 10 (4)                  13               1 166 741
//	6       2 595      843  7 (243), 9 (540), 11 (60)                15               3 473 879
//	7      17 241    3 707  8 (729), 10 (2 430), 12 (540), 14 (8)    19               7 791 543
//
// Every program in the table is n+1 tokens plus one STO and one M+V or M−V
// per value kept in m; the 3^(n−1) members of length n+1 are the chains
// LOAD then ADD, SUB or MUL per leaf. Up to 4 leaves the candidates outside
// the family are those all of whose trees multiply by a compound right
// operand (a·(b+c): MUL multiplies by one operand); from 5 leaves on also
// some that would hold two values at once, such as a+(b+c·d)·e. The longest
// context of all 7-leaf candidates is 21 tokens, within the 24 the CUDA
// kernels' records hold (task.MaxContext is 128).
//
// # Vocabulary
//
// Tokens 0–18 are calc's (digits, CTX, the tools); then the context tokens:
// the leaves a–g (19–25), "(" ")" "+" "-" "*" (26–30): Vocab = 31. The op
// table (Ops) is calc.Ops followed by nothing for the context tokens, so a
// GPU interprets it as calc's.
//
// # Splits
//
// A split divides each size's members (never a member's operand tuples)
// into training and held-out items:
//
//   - expressions: a fifth of each size, rounded, at least one of a size of
//     3 members or more: those whose canonical polynomial (Poly.String)
//     hashes lowest (FNV-1a);
//   - pattern: every member whose representative subtracts a product from a
//     sum (a − node, its left operand a + node, its right a × node:
//     a+b−c·d);
//   - length: every member of the largest size held out, all others trained
//     on.
//
// Training / held-out members per size, for the default 6 leaves (7 leaves
// adds the last column; the smaller sizes are the same, except that the
// length split then trains on 6 leaves and holds out 7):
//
//	split        2     3     4      5        6        7
//	expressions  2/1   9/2   36/9   154/39   674/169  2966/741
//	pattern      3/0   11/0  44/1   183/10   773/70   3284/423
//	length       3/0   11/0  45/0   193/0    0/843    0/3707
package expr
