package countdowntask

import (
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// revisit=on is the game before the rule, bit for bit on the recorded
// random walks (TestThinkOffIsToday's), and countdown3's default;
// revisit=off is a different game on the same walks, and the default of 4
// numbers (the 24 Game's with its vector); a bad value is one line.
func TestRevisitSpec(t *testing.T) {
	for name, want := range walksBeforeThink {
		on, off := recorded(opened(t, name, "revisit=on; observe=token")), recorded(opened(t, name, "revisit=off; observe=token"))
		require.Equal(t, want, on, name)
		require.NotEqual(t, want, off, name)
		def := off
		switch name {
		case "countdown3":
			def = on
		case "game24": // observing the vector by default
			def = recorded(opened(t, name, "revisit=off; observe=vector"))
			require.Equal(t, off, recorded(opened(t, name, "observe=token")), name)
		}
		require.Equal(t, def, recorded(opened(t, name, "")), name)
	}
	for _, bad := range []string{"revisit=no", "revisit=", "revisit"} {
		_, err := task.Open("countdown4", bad)
		require.Error(t, err, bad)
		require.NotContains(t, err.Error(), "\n")
	}
}

// With revisit=off, on random walks of legal tokens (the tokens a masked
// policy plays), of every task: the mask is never empty while the episode
// runs, Step accepts exactly the tokens Legal allows, and an episode whose
// start has nothing left to try ends unsolved at once.
func TestRevisitOffGame(t *testing.T) {
	key := rng.NewKey(19)
	ended := 0
	var toks []int32
	for _, name := range []string{"countdown3", "countdown4", "game24"} {
		tk := opened(t, name, "revisit=off; think=2")
		g := tk.NewGame().(*Game)
		legal := make([]bool, tk.Vocab())
		for e := uint32(0); e < 200; e++ {
			in := tk.Draw(key, 0, e, rng.PurposeTask, 0, task.Split(e%2))
			in.Budget = 256
			g.Reset(&in)
			require.True(t, g.Pool().NoRevisit())
			for k := uint32(0); k < 256; k++ {
				g.Legal(legal)
				toks = toks[:0]
				for tok, ok := range legal {
					if tok != int(tk.thinkToken()) && ok != g.Pool().Allows(int32(tok)) { // not require.Equal: a hot loop, also under qemu
						t.Fatalf("%s: %s at %s: Legal says %v", name, tk.TokenName(int32(tok)), g.Pool(), ok)
					}
					if ok {
						toks = append(toks, int32(tok))
					}
				}
				if len(toks) == 0 {
					t.Fatalf("%s: no legal token at %s", name, g.Pool())
				}
				tok := toks[rng.Below(key.Block(1, e, k, rng.PurposeAction)[0], uint32(len(toks)))]
				_, reward, done := g.Step(tok)
				if done {
					require.Equal(t, reward == 1, g.Correct())
					if !g.Correct() {
						require.True(t, g.Pool().Stuck(), "%s: an unsolved end is a finished search", name)
						ended++
					}
					break
				}
			}
		}
	}
	require.Greater(t, ended, 50, "random searches that prune their way out end early")
}
