package expr

//go:generate go run ./internal/gentable

// Size is what the search found for the expressions of one size.
type Size struct {
	Leaves   int    // n
	Distinct int    // distinct polynomials of the trees of n leaves
	Members  int    // those a program of at most calc.MaxBudget tokens computes
	Shortest [2]int // the members' shortest lengths, smallest and largest, ANS included
	States   int    // machine states the search stored
	Tail     int64  // states it visited depth first beyond StoreDepth
}

// Sizes is the family's sizes, 2..MaxLeaves, as the generated table has
// them.
func Sizes() []Size { return append([]Size(nil), sizeTable[:]...) }
