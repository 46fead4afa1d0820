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
//	19     [NEG]   v ← −v   (the branching machine only)
//	20     [SWAP]  v ↔ m    (the branching machine only)
//
// "Next operand" is the context digit under p, after which p advances: the
// operands are read in order a, b, c, …, each by exactly one tool; with none
// left, LOAD, ADD, SUB and MUL do nothing. One memory slot suffices for the
// default levels (a·b+c·d−e·f folds a·b+c·d back into m).
//
// The 19-token machine (Vocab, Ops) is the open-loop one; the branching
// machine (BranchVocab = 21, BranchOps) appends NEG and SWAP, for levels
// with abs, max or min (see "Branching levels"), so that every token and op
// of the 19 keeps its number.
//
// The semantics is data: Ops maps every token to an interp.Op {Kind, Src, Dst}
// (three int32), and Machine.Apply is the only function that interprets it:
// read the source (the next operand, v or m), then one switch over the kind
// on int64 registers; no maps, no allocation. A CUDA twin copies the table
// into constant memory and writes the same switch.
//
// # Levels
//
// A level is an expression over the variables a–h (MaxVars = 8) with + − ×
// (also written * × - −), parentheses and abs, max, min (see "Branching
// levels"), × binding tighter; the context
// shows the digits a up to the highest letter used (a*c shows a, b, c). Its
// budget is the number of tokens the policy writes, ANS included; by default
// the shortest program's length plus 2 (at most MaxBudget = 16).
// ParseLevels reads "expr" or "expr:budget" items separated by commas and
// refuses syntax errors, unknown variables, empty items, repeated levels,
// budgets outside 1–16, and expressions that no program within the budget
// computes; its error lists at most five problems, one a line, and counts
// the rest ("… and 27 more problems").
//
// A level's program (Level.Shortest) is the shortest that the search finds
// within min(budget, MaxSearchLen = 12) tokens. When it finds none and the
// budget is larger (or not given), the expression is compiled to a program
// for the one register and the one memory slot (leaves spelled a, b, c, … in
// order; "x ± compound" through STO and M+V or M−V), verified with Computes:
// a*b+c*d-e*f+g*h:16 gets a 15-token program. That program is the shortest
// found, not necessarily the shortest.
//
// # Branching levels and observations
//
// An expression may also use abs(x), max(x, y) and min(x, y) (a spec's
// commas inside a call separate arguments, not levels; at most MaxOperators
// operators of any kind). Such a level branches: which tokens compute |a−b|
// depends on the sign of a−b, and no fixed program computes it
// (FixedProgram, Search on the branching machine, finds none within the
// budget). Its policy observes, after every token, the signs of v and of
// v − m (Machine.Observe: o = 3·(sgn v+1) + sgn(v−m)+1, 0..8; 4 at the start),
// and its program is a decision tree over those observations (Tree).
//
// SearchTree finds a tree of least worst-case length: an AND-OR
// depth-first search by iterative deepening over a set of tuples (at first
// the probes), remembering failed nodes by a hash of their tuples' machines,
// verifying a found tree on every tuple and adding the tuples it fails on
// (counterexample-guided), within MaxSearchStates nodes and the curriculum's
// MaxCurriculumStates like Search, to the depth of an explicit budget (up to
// MaxBudget: no compiler writes trees) or MaxSearchLen without one; each
// token more costs several times the states, so the cap, not the budget,
// usually ends a deep search. A branching level's Tree is that tree,
// ShortestLen its worst case and the default budget that plus BudgetSlack.
// The observation curriculum ObserveLevelsSpec:
//
//	level  expression     digits  tree worst case  budget  best fixed  per multiset
//	0      abs(a-b)       2       4                6       0.550       0.640
//	1      max(a,b)       2       5                7       0.550       0.720
//	2      abs(a-b)*c     3       5                7       0.595       0.707
//	3      min(a,b)*c     3       6                8       0.595       0.777
//	4      max(a,b)+c     3       6                8       0.550       0.632
//	5      max(a*b,c*d)   4       7                9       0.528       0.695
//	6      abs(a*b-c*d)   4       8                10      0.528       0.692
//
// The last two columns are OpenLoop's exact bounds within the budget on the
// branching machine, over every tuple: the best fixed token sequence's
// share of correct tuples, and the best sequence chosen per digit multiset
// (what a policy that sees the digits as a bag can reach).
//
// For evaluation, Expr.Subsets puts an instance in tie, zero and negative
// (SubsetNames), and Levels.Instances lists a split in full.
//
// # Identity: canonical expressions and the split
//
// A level is its canonical expression (Expr.Canonical), not its spelling:
// redundant parentheses are dropped and the two operands of every + and ×
// are put in a fixed order, so a*b, (a*b), ((a*b)) and b*a are one level,
// (a*b)+(c*d) is a*b+c*d and c+a*b is a*b+c. Operands are swapped but never
// regrouped, so every spelling of a level has the same target and the same
// multiset of inner values (which earn partial credit, see Run) on every
// tuple; a+(b+c) and a+b+c, or a*(b+c) and a*b+a*c, stay two levels. Expr.String
// and the level's name keep the user's spelling (normalized: no spaces, ASCII
// operators). Levels.Canonical and CanonicalSpec (parse only, no search)
// spell a curriculum canonically, for comparing two of them.
//
// The held-out split is salted by the function a level computes: its number
// of digits and its expanded polynomial over a–h (exact for + − ×), so two
// levels that agree on every tuple, such as a*(b+c) and a*b+a*c, hold out the
// same tuples and never train on one another's held-out part. abs, max and
// min have no polynomial: a branching level of at most 4 digits is salted by
// a hash of its values on every tuple (the same property), a larger one by
// its canonical form (max and min operands are ordered as those of + and ×).
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
// To add a level, pass it to ParseLevels, which finds its shortest program
// and budget or says why there is none; to add it to DefaultLevelsSpec, also
// run "go generate ./env/calc" to regenerate the table.
//
// # Search
//
// Search finds a shortest program by breadth-first search over the machine
// states on NumProbes (56) probe contexts at once, each state vector kept
// once (compared whole), with a subset of tools removable; a program that is
// right on every probe is verified on every digit tuple (all 10^n for n ≤ 6,
// else 200 000 drawn). The default levels are not searched at process start,
// because the last one alone visits 257 377 states (their cost:
// docs/performance.md, "Searches and generated tables"): their programs are
// a generated table (default_programs.go; regenerate with "go generate
// ./env/calc", which must leave no diff), each entry checked with Computes
// on up to 10 000 tuples when used (BenchmarkParseDefaultLevels times the
// parse). Every other search is remembered for
// the process, by the function searched and the depth, so a level is searched
// once however many specs, spellings or calctask.Calc calls name it.
//
// ParseLevelsWith takes ParseOptions: an Interrupt channel (a search stops
// within checkEvery expansions of its closing, its first expansion included, with an error wrapping
// ErrInterrupted) and a Progress callback, called once a search has run for
// a second and then about once a second ("searching level 3 e*e+h: 1.2M
// states, 2.1 s").
//
// # Bounded work
//
// Every spec is refused or parsed within fixed bounds, checked in this
// order: at most MaxSpecBytes (4096) bytes and MaxLevels (32) levels, checked
// before anything is parsed (a 1 MB spec costs one length check); then
// every level is parsed, with at most MaxLeaves (16) variable occurrences and
// parentheses nested at most 64 deep, and duplicates are refused, before any
// search; then each search stops at MaxSearchStates (300 000) states, with
// "the search for a shortest program visited 300000 states, the most one
// search may, without finding one of at most 12 tokens; give a smaller
// expression or a smaller explicit :budget", and all the searches of one
// spec stop at MaxCurriculumStates (1 500 000) states together (one search's
// states are live at a time), so time and memory are bounded by states, not
// by the input (what the caps cost: docs/cli.md, "Bad input, outputs and
// interruptions"). Remembered searches and the default table cost no states.
//
// # Instances, the split and scoring
//
// Each level's digit tuples are split once, by a hash of the tuple and the
// function the level computes (see above), into a training part (80 %) and a
// held-out part (20 %). Levels.Draw draws an Instance from the counter-based stream,
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
