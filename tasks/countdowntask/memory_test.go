package countdowntask

import (
	"runtime"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// TestGameBytesIsWhatAGameHolds: GameBytes (what the engines' memory
// estimates count per game) is what a game holds on the heap after
// episodes played to their end, within the allocator's rounding, with the
// no-revisit rule and without, at the default budgets and a small one.
func TestGameBytesIsWhatAGameHolds(t *testing.T) {
	const games = 256
	key := rng.NewKey(9)
	for _, c := range [][2]string{{"countdown4", ""}, {"countdown3", ""}, {"game24", ""}, {"game24", "revisit=on"}, {"countdown4", "budget=20"}} {
		tk := opened(t, c[0], c[1])
		legal := make([]bool, tk.Vocab())
		moves := make([]int32, 0, tk.Vocab())
		held := make([]task.Game, games)
		tk.Draw(key, 0, 0, rng.PurposeTask, 0, task.HeldOut) // what the task builds once, before the count
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range held {
			g := tk.NewGame().(*Game)
			held[i] = g
			for e := range uint32(3) {
				in := tk.Draw(key, e, uint32(i), rng.PurposeTask, 0, task.Split(e%2))
				g.Reset(&in)
				for step := 0; step < int(in.Budget); step++ {
					g.Legal(legal)
					moves = moves[:0]
					for tok, ok := range legal {
						if ok {
							moves = append(moves, int32(tok))
						}
					}
					if len(moves) == 0 {
						break
					}
					// mostly deep walks: many states reached
					if _, _, done := g.Step(moves[(step*7+i)%len(moves)]); done {
						break
					}
				}
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perGame := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / games
		declared := task.GameBytes(tk)
		t.Logf("%s %q: %.0f bytes a game held, %.0f declared", c[0], c[1], perGame, declared)
		require.LessOrEqual(t, perGame, 1.15*declared, "%s %q: a game holds more than GameBytes", c[0], c[1])
		require.GreaterOrEqual(t, perGame, 0.5*declared, "%s %q: GameBytes is far above what a game holds", c[0], c[1])
		runtime.KeepAlive(held)
	}
}
