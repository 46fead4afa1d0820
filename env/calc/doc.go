// Package calc is the calculator task: the context shows a few digits
// a, b, c, …, and the policy writes a program of tool tokens that computes an
// arithmetic expression over them (a·b+c·d, …). It owns the vocabulary, the
// instruction set (as a table of ops and the one interpreter of that table),
// the expression parser, the levels and the default curriculum, the search
// for shortest programs that validates a level, drawing instances with a
// training / held-out split, and scoring.
//
// It imports only the standard library and rng: never gru, trainer, gpu or
// the seed environment env, so that every engine can use it and it knows
// nothing about the model.
//
// # The machine and its instruction set
//
// The state is a value register v, one memory slot m and an operand pointer
// p over the context digits; all start at 0. Every token is one step.
//
//	token  name    effect
//	0–9    digit   nothing
//	10     [CTX]   nothing (ends the context; the policy's first input)
//	11     [LOAD]  v ← next operand
//	12     [ADD]   v ← v + next operand
//	13     [SUB]   v ← v − next operand
//	14     [MUL]   v ← v × next operand
//	15     [STO]   m ← v
//	16     [M+V]   v ← m + v
//	17     [M-V]   v ← m − v
//	18     [ANS]   answer v; the episode ends
//
// "Next operand" is the context digit under p, after which p advances: the
// operands are read in order a, b, c, …, each by exactly one tool; with none
// left, LOAD, ADD, SUB and MUL do nothing. One memory slot suffices for the
// default levels (a·b+c·d−e·f folds a·b+c·d back into m).
//
// The semantics is data: Ops maps every token to an Op {Kind, Src, Dst}
// (three int32), and Machine.Apply is the only function that interprets it:
// read the source (the next operand, v or m), then one switch over the kind
// on int64 registers; no maps, no allocation. A CUDA twin copies the table
// into constant memory and writes the same switch.
//
// # Levels
//
// A level is an expression over the variables a–h (MaxVars = 8) with + − ×
// (also written * × - −) and parentheses, × binding tighter; the context
// shows the digits a up to the highest letter used (a*c shows a, b, c). Its
// budget is the number of tokens the policy writes, ANS included; by default
// the shortest program's length plus 2. ParseLevels reads "expr" or
// "expr:budget" items separated by commas and refuses, with one line per
// problem, syntax errors, unknown variables, empty items, repeated
// expressions, budgets outside 1–16, and expressions that no program of at
// most min(budget, MaxSearchLen = 12) tokens computes.
//
// The default curriculum (DefaultLevelsSpec), with the shortest programs that
// Search finds (the tests recompute them):
//
//	level  expression     digits  shortest program                                        length  budget
//	0      a*b            2       LOAD MUL ANS                                            3       5
//	1      a*b+c          3       LOAD MUL ADD ANS                                        4       6
//	2      (a*b+c)-d      4       LOAD MUL ADD SUB ANS                                    5       7
//	3      a*b+c*d        4       LOAD MUL STO LOAD MUL M+V ANS                           7       9
//	4      (a*b+c)-(d*e)  5       LOAD MUL ADD STO LOAD MUL M-V ANS                       8       10
//	5      a*b+c*d-e*f    6       LOAD MUL STO LOAD MUL M+V STO LOAD MUL M-V ANS          11      13
//
// From level 3 on no program without STO, M+V and M−V computes the level.
// To add a level, append its expression to DefaultLevelsSpec (or pass it to
// ParseLevels); parsing finds its shortest program and budget, or says why
// there is none.
//
// # Search
//
// Search finds a shortest program by breadth-first search over the machine
// states on NumProbes (56) probe contexts at once, each state vector kept
// once (compared whole), with a subset of tools removable; a program that is
// right on every probe is verified on every digit tuple (all 10^n for n ≤ 6,
// else 200 000 drawn). The default levels take from 0.06 ms to 0.32 s on one
// core (the last one: 257 377 states, 260 MB while it runs); parsing the
// whole default curriculum takes 0.33 s (BenchmarkParseDefaultLevels).
//
// # Instances, the split and scoring
//
// Each level's digit tuples are split once, by a hash of the tuple and the
// level's canonical expression, into a training part (80 %) and a held-out
// part (20 %). Levels.Draw draws an Instance from the counter-based stream,
// a pure function of (key, round, episode, purpose, level, heldOut), from the
// training part or, for evaluation, the held-out part. Run scores a program
// on it: 1 for a correct answer at the first ANS within the budget, plus
// partialCredit × the share of the expression's inner subexpressions whose
// value v held after some token before that ANS (see Run). Draw and Run
// allocate nothing.
//
// Arithmetic is int64 and cannot overflow: digits are at most 9, an
// expression has at most 16 variable occurrences (|value| ≤ 9^16), and a
// budget is at most 16 tokens, none of which more than multiplies a magnitude
// by 9 (|v|, |m| ≤ 9^16 ≈ 1.9e15 < 2^63).
package calc
