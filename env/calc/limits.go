package calc

import (
	"errors"
	"sync/atomic"
)

// Limits on a levels spec and on the work parsing it may do. Every spec,
// however long or hard, is refused or parsed within them (see the package
// doc, "Bounded work", for the seconds and megabytes they mean).
const (
	// MaxLevels is the most levels a spec may have (the default has 6).
	MaxLevels = 32
	// MaxSpecBytes is the longest spec, in bytes.
	MaxSpecBytes = 4096
	// MaxSearchStates is the most machine states one search visits; the
	// default's hardest level, a*b+c*d-e*f, needs 257 377. Each state holds
	// its registers on every probe, about 1 KB.
	MaxSearchStates = 300_000
	// MaxCurriculumStates is the most states all the searches of one parse
	// visit together (searches answered by the cache or the table cost none).
	MaxCurriculumStates = 1_500_000
)

// maxRejected bounds the programs one search verifies in vain (each is a
// Computes over up to verifyAllUpTo tuples); the default levels reject none.
const maxRejected = 16

// maxNesting bounds the parenthesis depth of an expression (the parser
// recurses once per level).
const maxNesting = 64

// ErrInterrupted is returned (wrapped) by ParseLevelsWith when its Interrupt
// channel closes during a search.
var ErrInterrupted = errors.New("interrupted")

// searchesRun counts the searches actually run (not answered by the cache or
// the table), for tests.
var searchesRun atomic.Int64

// statesVisited counts the states every search of the process has visited.
var statesVisited atomic.Int64

// StatesVisited is the number of machine states all searches of this process
// have visited so far: the measure of parsing's work that MaxSearchStates and
// MaxCurriculumStates bound (fuzz targets outside the package check it).
func StatesVisited() int64 { return statesVisited.Load() }
