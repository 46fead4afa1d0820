package tape

// Rules are what an engine with its own implementation of the machine (the
// CUDA kernels' tape.cuh) needs to run a task's programs without the task's
// Go code: the machine's variant, the tool of every token, and the partial
// credit of an Episode. The instance is read from its data (DataTarget,
// DataNWords, DataWords).
type Rules struct {
	Variant Variant
	// Tools is each token's tool, one per token of the task's vocabulary;
	// −1 (or any number that is no tool) for a token that is none.
	Tools []Tool
	// PartialCredit is the Episode's credit per share of operators applied.
	PartialCredit float64
}

// Ruled is a task whose programs run on the machine by its Rules, stepped
// as an Episode on the tape its instances' data hold: its Score must be
// what Episode gives. Engines may then run it themselves.
type Ruled interface {
	TapeRules() Rules
}

// An instance's data (task.Instance.Data, int64 words): its target, how many
// packed words its tape takes, then those words, Variant.CellBits bits a
// cell, 64/bits cells a word, cell i in bits bits·(i%k) of word i/k, ended
// by the stop value (Leaf with 4 bits, 31 with 5) unless the words are full.
const (
	DataTarget  = 0
	DataNWords  = 1
	DataWords   = 2
	PackedWords = 16 // the most words a tape takes
)

// CellBits is how many bits a packed cell takes: 4 (the cells up to Leaf,
// the stop), 5 with branching's four more cells.
func (v Variant) CellBits() int {
	if v.Branching {
		return 5
	}
	return 4
}
