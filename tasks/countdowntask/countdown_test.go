package countdowntask

import (
	"testing"

	"github.com/simdrl/simdrl/env/countdown"
	"github.com/simdrl/simdrl/env/game24"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

func opened(t *testing.T, name, spec string) *poolTask {
	tk, err := task.Open(name, spec)
	require.NoError(t, err)
	p, ok := poolOf(tk)
	require.True(t, ok)
	return p
}

// The tasks open, validate and have the vocabulary, budget and
// observations their pools say: the token (countdown) or the vector (the
// 24 Game) by default.
func TestOpen(t *testing.T) {
	for _, c := range []struct {
		name          string
		n, vocab, bud int
		vector        bool
	}{{"countdown3", 3, 20, 64, false}, {"countdown4", 4, 38, 256, false}, {"game24", 4, 38, 256, true}} {
		tk := opened(t, c.name, "")
		require.Equal(t, c.vocab, tk.Vocab())
		require.Equal(t, c.bud, tk.Levels()[0].Budget)
		require.Equal(t, c.n-1, tk.Levels()[0].Shortest)
		if c.vector {
			require.Zero(t, tk.Observations())
			require.Equal(t, task.FieldSpec{Sizes: []int{6 * c.n}, Vector: 4*c.n + 2}, tk.Fields())
		} else {
			require.Equal(t, 6*c.n, tk.Observations())
			require.False(t, task.IsFielded(tk))
		}
		require.Equal(t, 6*c.n, opened(t, c.name, "observe=token").Observations())
		require.Equal(t, "UNDO", tk.TokenName(int32(c.vocab-2)))
		require.Equal(t, "END", tk.TokenName(int32(c.vocab-1)))
		require.Equal(t, 256, opened(t, c.name, "budget=256").Levels()[0].Budget)
	}
	for _, bad := range []string{"budget=0", "budget=x", "budget=257", "size=3", "budget"} {
		_, err := task.Open("countdown3", bad)
		require.Error(t, err, bad)
		require.NotContains(t, err.Error(), "\n")
	}
}

// An episode: refused and undone tokens, observations, and the pay at the
// solve; Legal masks the context end and what the pool refuses.
func TestGame(t *testing.T) {
	tk := opened(t, "countdown3", "")
	in := instance([]int64{7, 2, 1}, 3, 64)
	g := tk.NewGame().(*Game)
	obs := g.Reset(&in)
	require.Equal(t, "start · 3 left", tk.ObservationName(obs))
	legal := make([]bool, tk.Vocab())
	g.Legal(legal)
	require.False(t, legal[tk.end()], "the context end is never legal")
	require.False(t, legal[4], "7÷2 is refused")
	require.True(t, legal[0])

	step := func(name string) (string, float64, bool) {
		for tok := range int32(tk.Vocab()) {
			if tk.TokenName(tok) == name {
				o, r, d := g.Step(tok)
				return tk.ObservationName(o), r, d
			}
		}
		t.Fatalf("no token %s", name)
		return "", 0, false
	}
	o, r, d := step("s0/s1")
	require.Equal(t, []any{"refused · 3 left", 0.0, false}, []any{o, r, d})
	o, _, _ = step("s0+s1")
	require.Equal(t, "above · 2 left", o) // 9 > 3
	o, _, _ = step("UNDO")
	require.Equal(t, "undone · 3 left", o)
	o, _, _ = step("s0-s2") // 6
	require.Equal(t, "above · 2 left", o)
	require.False(t, g.Correct())
	o, r, d = step("s0/s1") // 6 ÷ 2 = 3
	require.Equal(t, []any{"equal · 1 left", 1.0, true}, []any{o, r, d})
	require.True(t, g.Correct())

	// Score derives from stepping: the same program scores 1.
	toks := []int32{}
	for _, name := range []string{"s0-s2", "s0/s1"} {
		for tok := range int32(tk.Vocab()) {
			if tk.TokenName(tok) == name {
				toks = append(toks, tok)
			}
		}
	}
	require.Equal(t, task.Outcome{Reward: 1, Correct: true}, task.Score(tk, &in, toks))
	ex := task.Explain(tk, &in, toks)
	require.True(t, ex.Correct)
	require.Equal(t, 1.0, ex.Reward)
	require.Equal(t, "pool [7 2 1] → 3", ex.Note)
	require.Equal(t, []task.Step{{Token: "s0-s2", State: "[6 2 _] → 3 · obs above · 2 left"}, {Token: "s0/s1", State: "[3 _ _] → 3 · obs equal · 1 left"}}, ex.Trace)
	// The explanation's score is the stepped one, the budget included.
	short := in
	short.Budget = 1
	require.Equal(t, task.Score(tk, &short, toks), task.Outcome{Reward: task.Explain(tk, &short, toks).Reward, Correct: task.Explain(tk, &short, toks).Correct})
	require.False(t, task.Explain(tk, &short, toks).Correct)
}

// Draws are solvable instances of their split, reproducible; the listed
// instances are the splits' (disjoint), the 24 Game's its hands whole.
func TestDrawsAndLists(t *testing.T) {
	key := rng.NewKey(21)
	for _, name := range []string{"countdown3", "countdown4", "game24"} {
		tk := opened(t, name, "")
		for e := uint32(0); e < 100; e++ {
			for _, sp := range []task.Split{task.Training, task.HeldOut} {
				in := tk.Draw(key, 0, e, rng.PurposeTask, 0, sp)
				require.Equal(t, in, tk.Draw(key, 0, e, rng.PurposeTask, 0, sp))
				require.NoError(t, task.Check(tk, &in))
				require.True(t, heldOut(tk, &in) == (sp == task.HeldOut), "%s %v in split %v", name, in.Data[:6], sp)
				var p countdown.Pool
				tk.Pool(&in, &p)
				require.True(t, countdown.Solvable(&p, countdown.Restrict{}))
			}
		}
		train, held := tk.Instances(0, task.Training, 0), tk.Instances(0, task.HeldOut, 0)
		require.Len(t, train, tk.Count(0, task.Training))
		require.Len(t, held, tk.Count(0, task.HeldOut))
		for _, in := range held {
			require.True(t, heldOut(tk, &in))
		}
		for _, in := range train {
			require.False(t, heldOut(tk, &in))
		}
		require.Equal(t, held[:5], tk.Instances(0, task.HeldOut, 5))
	}
	g := opened(t, "game24", "")
	require.Equal(t, 1362, g.Count(0, task.Training)+g.Count(0, task.HeldOut))
}

// heldOut is whether in belongs to the held-out split, by the worlds'
// rules.
func heldOut(tk *poolTask, in *task.Instance) bool {
	n := int(in.Data[dataN])
	if tk.rules == countdown.Fractions {
		var h game24.Hand
		copy(h[:], in.Data[dataNumbers:dataNumbers+n])
		return game24.Contains(hands().HeldOut, h)
	}
	c := countdown.Instance{N: n, Target: in.Data[dataTarget]}
	copy(c.Numbers[:], in.Data[dataNumbers:dataNumbers+n])
	return c.HeldOut()
}

// The subsets, on hand cases.
func TestSubsets(t *testing.T) {
	cd := opened(t, "countdown3", "")
	require.Equal(t, []string{"needs*/", "new target"}, cd.SubsetNames())
	in := instance([]int64{25, 50, 75}, 100, 64)
	require.Zero(t, cd.Subsets(&in))
	in = instance([]int64{3, 4, 5}, 23, 64)
	require.Equal(t, uint32(subsetMulDiv), cd.Subsets(&in))
	for v := int64(countdown.MinTarget); v <= countdown.MaxTarget; v++ {
		if countdown.NewTarget(v) {
			in = instance([]int64{v, 1, 1}, v, 64) // v+1−1
			require.Equal(t, uint32(subsetSecond), cd.Subsets(&in))
			break
		}
	}
	g := opened(t, "game24", "")
	in = instance([]int64{3, 3, 8, 8}, 24, 128)
	require.Equal(t, uint32(subsetMulDiv|subsetSecond), g.Subsets(&in))
	in = instance([]int64{6, 6, 6, 6}, 24, 128)
	require.Zero(t, g.Subsets(&in))
}

// The mask always leaves a token to play (the contract's mask requires
// one): a combination while two values are left, else UNDO; on random
// walks of every task, with and without the no-revisit rule, legal tokens
// are what the game accepts.
func TestLegalNeverEmpty(t *testing.T) {
	key := rng.NewKey(17)
	for _, c := range [][2]string{{"countdown3", ""}, {"countdown4", ""}, {"game24", ""}, {"countdown3", "revisit=off"}, {"countdown4", "revisit=on"}, {"game24", "revisit=on"}} {
		name, spec := c[0], c[1]
		tk := opened(t, name, spec)
		g := tk.NewGame().(*Game)
		legal := make([]bool, tk.Vocab())
		for e := uint32(0); e < 100; e++ {
			in := tk.Draw(key, 0, e, rng.PurposeTask, 0, task.Training)
			g.Reset(&in)
			for k := uint32(0); k < 40; k++ {
				g.Legal(legal)
				require.Contains(t, legal, true, "%s: no legal token at %s", name, g.Pool())
				for tok, ok := range legal {
					require.Equal(t, ok, accepts(g.Pool(), int32(tok)), "%s %q: token %s at %s", name, spec, tk.TokenName(int32(tok)), g.Pool())
				}
				tok := int32(rng.Below(key.Block(1, e, k, rng.PurposeAction)[0], uint32(tk.Vocab())))
				if _, _, done := g.Step(tok); done {
					break
				}
			}
		}
	}
}

// accepts reports whether p would take tok now, leaving p as it is: by
// stepping a copy when the no-revisit rule is off, else by Allows (a copy
// would share the rule's set; TestNoRevisitRandomWalks checks that Step
// takes what Allows allows under the rule).
func accepts(p *countdown.Pool, tok int32) bool {
	if p.NoRevisit() {
		return p.Allows(tok)
	}
	c := *p
	return c.Step(tok)
}
