package customtask

import (
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// lockCodes lists every code of level's length n as instances.
func lockCodes(level int) []task.Instance {
	n := lockLengths[level]
	var ins []task.Instance
	for c := 0; c < 1<<(2*n); c++ {
		in := task.Instance{Level: int32(level), Budget: int32(lockBudget(n))}
		for k := range n {
			in.Data[k] = int64(c >> (2 * k) & 3)
		}
		in.Data[3] = int64(n)
		ins = append(ins, in)
	}
	return ins
}

// playLock plays policy on in within budget tokens: policy sees the last
// observation and returns the next digit. It reports whether the lock
// opened.
func playLock(in *task.Instance, budget int, policy func(obs int32) int32) bool {
	g := Lock{}.NewGame()
	obs := g.Reset(in)
	for range budget {
		var done bool
		obs, _, done = g.Step(policy(obs))
		if done {
			break
		}
	}
	return g.Correct()
}

// searcher is the systematic search: at each digit try 0, 1, 2, 3 in turn,
// entering the digits found so far again after every buzz.
func searcher() func(obs int32) int32 {
	var found []int32
	var pos, try int32
	return func(obs int32) int32 {
		switch obs {
		case lockClick:
			if int(pos) == len(found) { // the digit tried is right
				found = append(found, try)
				try = 0
			}
			pos++
		case lockBuzz:
			pos, try = 0, try+1
		}
		if int(pos) < len(found) {
			return found[pos]
		}
		return try
	}
}

// TestLockBudgetIsTheSearchsWorstCase: the systematic search opens every
// code of every level within its budget, and some code of every level needs
// all of it; a policy that ignores the lock's answers (a fixed sequence)
// opens only some codes of two digits or more.
func TestLockBudgetIsTheSearchsWorstCase(t *testing.T) {
	for level := range len(lockLengths) {
		budget := lockBudget(lockLengths[level])
		short, blind := 0, 0
		for _, in := range lockCodes(level) {
			require.True(t, playLock(&in, budget, searcher()), "level %d code %v", level, in.Data[:3])
			if !playLock(&in, budget-1, searcher()) {
				short++
			}
			i := int32(0)
			if playLock(&in, budget, func(int32) int32 { i++; return i % lockSymbols }) {
				blind++
			}
		}
		require.Positive(t, short, "level %d: one token less must fail a code", level)
		if level > 0 { // one digit: trying all four in turn opens it blind
			require.Less(t, blind, len(lockCodes(level)), "level %d: without observing, some code stays shut", level)
		}
	}
}

// TestLockBuzzStartsAgain: a wrong digit after a right one starts the code
// again, so entering the right second digit then does not open a 2-digit
// lock.
func TestLockBuzzStartsAgain(t *testing.T) {
	in := task.Instance{Level: 1, Budget: int32(lockBudget(2))}
	in.Data[0], in.Data[1], in.Data[3] = 2, 1, 2
	require.Equal(t, task.Outcome{}, task.Score(Lock{}, &in, []int32{2, 0, 1}))
	require.Equal(t, task.Outcome{Reward: 1, Correct: true}, task.Score(Lock{}, &in, []int32{2, 0, 2, 1}))
}
