// Package taperules is the tape machine's contract with an engine that runs
// the machine itself, as env/interp is the calculator's: a task's Rules (the
// machine's variant, each token's tool, the partial credit) and where its
// instances keep their tape (the data layout). The CUDA kernels' tape.cuh
// runs a Ruled task from them; package env/tape is the machine and its
// expression family. It imports nothing.
package taperules

// Rules are what an engine with its own implementation of env/tape's
// machine needs to run a task's programs without the task's Go code.
type Rules struct {
	// Variant is the machine's variant (tape.Variant) as bits: Loose,
	// Blind, Unstacked, Branching, Headless.
	Variant uint32
	// Tools is each token's tool (tape.Tool), one per token of the task's
	// vocabulary; −1 (or any number that is no tool) for a token that is
	// none.
	Tools []int32
	// PartialCredit is the episode's credit per share of operators
	// applied (tape.Episode).
	PartialCredit float64
	// Observations is the variant's observation vocabulary's size.
	Observations int
}

// Ruled is a task whose programs run on env/tape's machine by its Rules,
// stepped as a tape.Episode on the tape its instances' data hold (the
// layout below): its programs' rewards and observations must be what the
// Episode gives. Engines may then run it themselves.
type Ruled interface {
	TapeRules() Rules
}

// The variant's bits (Rules.Variant).
const (
	Loose     = 1 << iota // tape.Variant.Loose
	Blind                 // tape.Variant.Blind
	Unstacked             // tape.Variant.Unstacked
	Branching             // tape.Variant.Branching
	Headless              // tape.Variant.Headless
)

// An instance's data (task.Instance.Data, int64 words): its target, how many
// packed words its tape takes, then those words, bits = 4 a cell (5 with
// Branching), k = 64/bits cells a word, cell i in bits bits·(i%k) of word i/k, ended by the
// stop value (1<<bits − 1: tape.Leaf with 4 bits, 31 with 5; never a cell)
// unless the words are full.
const (
	DataTarget  = 0
	DataNWords  = 1
	DataWords   = 2
	PackedWords = 16 // the most words a tape takes
)
