package countdowntask

import (
	"unsafe"

	"github.com/simdrl/simdrl/env/countdown"
	"github.com/simdrl/simdrl/task"
)

// Game is one episode: the pool, searched with combinations and UNDO. It
// pays 1 and ends when every number has been combined into the target; a
// refused token (an illegal move, the context end) costs its step and
// changes nothing.
type Game struct {
	t *poolTask
	p countdown.Pool
	// For the fields (fields.go): the last observation, the steps played
	// and the budget.
	obs           int32
	steps, budget int
	thought       int // the THINKs played (think.go)
}

// revisitKey is the spec's key of the no-revisit rule: with revisit=off
// (countdown4's and game24's default, task.go) a combination into a pool
// state the episode has already reached (the same values, in any slots) is
// illegal, as a search's closed list skips it
// (countdown.Pool.ForbidRevisits), and an episode whose start has no legal
// combination left ends unsolved (its search is over).
// revisit=on is the game without the rule (countdown3's default, and
// every task's before it, issue 53's first measurements): trained without
// it, greedy policies on 4 numbers replayed one cycle of moves to the end
// of their budget (docs/results.md).
const revisitKey = "revisit"

func (g *Game) Reset(in *task.Instance) int32 {
	g.t.Pool(in, &g.p)
	if g.t.noRevisit {
		g.p.ForbidRevisits(int(in.Budget))
	}
	g.obs, g.steps, g.budget, g.thought = g.t.observe(&g.p, started), 0, int(in.Budget), 0
	return g.obs
}

func (g *Game) Step(tok int32) (obs int32, reward float64, done bool) {
	if obs, reward, ok := g.thinkStep(tok); ok {
		return obs, reward, false
	}
	var what moved
	switch {
	case !g.p.Step(tok):
		what = refused
	case tok == countdown.Undo(g.t.n):
		what = undone
	default:
		what = combined
	}
	g.obs = g.t.observe(&g.p, what)
	g.steps++
	if g.p.Solved() {
		return g.obs, 1, true
	}
	if what == undone && g.t.noRevisit && g.p.Stuck() {
		return g.obs, 0, true // every move from the start tried: the search is over
	}
	return g.obs, 0, false
}

func (g *Game) Correct() bool { return g.p.Solved() }

var _ task.GameSized = (*poolTask)(nil)

// GameBytes bounds what one of t's games holds (task.GameSized): the game
// and, under the no-revisit rule, its set of the states reached, which
// grows with the budget (16 KiB at 256 steps), and the engines hold a
// game per row of a chunk.
func (t *poolTask) GameBytes() int {
	n := int(unsafe.Sizeof(Game{}))
	if t.noRevisit {
		n += countdown.RevisitBytes(t.budget)
	}
	return n
}

// Legal writes into dst (Vocab() long) whether each token is a legal move
// now: the pool's combinations and UNDO (countdown.Pool.Legal), never the
// context end, THINK while thinks remain. It is the legal-action mask of the contract's coming mask
// (issue 53, item 2).
func (g *Game) Legal(dst []bool) {
	g.p.Legal(dst[:g.t.end()])
	dst[g.t.end()] = false
	g.legalThink(dst)
}

// Pool is the episode's pool (for explanations and tests).
func (g *Game) Pool() *countdown.Pool { return &g.p }
