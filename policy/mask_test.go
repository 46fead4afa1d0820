package policy_test

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// ring is a task with a legal-action mask: a position p on a ring of five
// starts at the shown digit, only p+1 and p+3 (mod 5) are legal, the move
// to p+1 pays. Its games panic on an illegal token; unmasked's games do not
// say what is legal (the control).
type ring struct{ unmasked bool }

func (ring) Name() string               { return "ring" }
func (ring) Vocab() int                 { return 6 }
func (ring) ContextEnd() int32          { return 5 }
func (ring) NotActions() []int32        { return []int32{5} }
func (ring) Answer() int32              { return task.NoAnswer }
func (ring) HoldsOut() bool             { return false }
func (ring) TokenName(tok int32) string { return fmt.Sprint(tok) }
func (ring) Levels() []task.Level {
	return []task.Level{{Name: "ring", Context: 1, Budget: 4, Shortest: 4}}
}
func (ring) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, lv int, _ task.Split) task.Instance {
	in := task.Instance{Level: int32(lv), NContext: 1, Budget: 4}
	in.Context[0] = int32(key.Block(round, episode, 0, purpose)[0] % 5)
	return in
}
func (r ring) NewGame() task.Game {
	if r.unmasked {
		return &ringGame{}
	}
	return &legalRing{}
}

type ringGame struct{ p, good int32 }

func ringLegal(p, a int32) bool { return a == (p+1)%5 || a == (p+3)%5 }

func (g *ringGame) Reset(in *task.Instance) int32 {
	g.p, g.good = in.Context[0], 0
	return task.NoObservation
}
func (g *ringGame) Correct() bool { return g.good == 4 }
func (g *ringGame) Step(a int32) (int32, float64, bool) {
	if !ringLegal(g.p, a) {
		panic(fmt.Sprintf("ring: illegal token %d at %d", a, g.p))
	}
	r := 0.0
	if a == (g.p+1)%5 {
		r, g.good = 0.25, g.good+1
	}
	g.p = a
	return task.NoObservation, r, false
}

type legalRing struct{ ringGame }

func (g *legalRing) Legal(legal []bool) {
	for a := range legal {
		legal[a] = ringLegal(g.p, int32(a))
	}
}

// A policy of a masked task plays (Play, Evaluate) and acts (a Session
// told the mask with Legal) only legal tokens, and its Probs give the
// illegal ones 0; the same checkpoint on the unmasked task plays illegal
// tokens (the control).
func TestPolicyHonoursTheMask(t *testing.T) {
	c := trainer.DefaultRecipe()
	c.Task, c.Hidden, c.Updates, c.Batch, c.Chunk, c.Steps, c.TrainLevels = "ring", 16, 3, 32, 8, 4, []int{0}
	c.EvalEvery, c.Explain, c.FinalEpisodes, c.EvalBatch, c.StopAt, c.Threads = 0, 0, 20, 8, 0, 2
	e, err := cpu.NewWithTask(c, ring{})
	require.NoError(t, err)
	t.Cleanup(e.Close)
	tr, err := trainer.New(c, ring{}, e)
	require.NoError(t, err)
	for range 3 {
		_, err := tr.Update()
		require.NoError(t, err)
	}
	f, err := tr.Checkpoint()
	require.NoError(t, err)
	p, err := policy.NewWithTask(f, ring{})
	require.NoError(t, err)
	ins := make([]task.Instance, 30)
	for i := range ins {
		ins[i] = task.Instance{NContext: 1, Budget: 4, Context: [task.MaxContext]int32{int32(i % 5)}}
	}
	res := make([]policy.Result, len(ins))
	require.NoError(t, p.Play(ins, nil, res))
	_, err = p.Evaluate(0, p.FinalEvaluation())
	require.NoError(t, err)

	control, err := policy.NewWithTask(f, ring{unmasked: true})
	require.NoError(t, err)
	require.ErrorContains(t, control.Play(ins, nil, res), "illegal token", "without the mask the policy plays illegal tokens: the test could not fail")

	for _, pick := range []policy.Pick{{}, {Sample: true, Seed: 3}} {
		s := p.Session()
		for i := range ins {
			require.NoError(t, s.Start(&ins[i], pick))
			pos := ins[i].Context[0]
			legal := make([]bool, p.Vocab())
			probs := make([]float32, p.Vocab())
			for range 4 {
				for a := range legal {
					legal[a] = ringLegal(pos, int32(a))
				}
				require.NoError(t, s.Legal(legal))
				a, err := s.Act(task.NoObservation)
				require.NoError(t, err)
				require.Truef(t, ringLegal(pos, a), "pick %+v: token %d at %d", pick, a, pos)
				_, err = s.Probs(probs)
				require.NoError(t, err)
				sum := 0.0
				for tok, q := range probs {
					if !legal[tok] {
						require.Zerof(t, q, "token %d is illegal", tok)
					}
					sum += float64(q)
				}
				require.InDelta(t, 1, sum, 1e-5)
				pos = a
			}
		}
		require.Error(t, s.Legal(make([]bool, 3)), "a mask of the wrong length")
		require.Error(t, s.Legal(make([]bool, p.Vocab())), "a mask with nothing legal")
		s.Release()
	}
}
