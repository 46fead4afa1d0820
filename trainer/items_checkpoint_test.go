package trainer

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/task"
)

// manyItems is a user's itemized task (not task.Interpreted) whose one
// level has n training items, each solved by any program.
type manyItems struct {
	tasktest.ItemCalc
	n int
}

func (m manyItems) Items(level int, split task.Split) int {
	if split == task.Transfer {
		return 0
	}
	return m.n
}

// itemRun is a Trainer of m with item focus and replay on a fakeEngine.
func itemRun(t *testing.T, m task.Itemized) *Trainer {
	cfg := DefaultRecipe()
	cfg.Task, cfg.TaskSpec = "calc", "levels=a*b"
	cfg.TrainLevels = []int{0}
	cfg.Hidden, cfg.Replay, cfg.ReplayCoef, cfg.ItemFocus = 4, 2, 1, true
	l, err := enginekit.NewLayout(cfg.Hidden, m)
	require.NoError(t, err)
	e := &fakeEngine{steps: cfg.Steps, params: make([]float32, l.Size), m: make([]float32, l.Size), v: make([]float32, l.Size),
		rate: func(call, int) float64 { return 0 }, levels: len(m.Levels())}
	tr, err := New(cfg, m, e)
	require.NoError(t, err)
	return tr
}

// headerLength is the length of the JSON header of an encoded checkpoint.
func headerLength(b []byte) int { return int(binary.LittleEndian.Uint64(b)) }

// TestLargestItemStateReadsBack: item focus's failure rates went into the
// header as JSON, and a user's task with 5.5 M trained items wrote a
// checkpoint that -resume refused ("header length 120003672 is absurd").
// The item state is tensors now: a run of the largest task the memory check
// allows (its trainer's share of 256 MiB, which bounds the whole run's
// from above) writes a checkpoint whose header does not grow with the
// items, and it reads back, every failure rate and replayed program exact.
func TestLargestItemStateReadsBack(t *testing.T) {
	base := newItemCalc(t, nil)
	sizes := func(n int) float64 {
		return enginekit.TrainerMemory(enginekit.RunSizes{Hidden: 4, Batch: 192, Steps: 6, Replay: 2, ItemFocus: true, Updates: 600}, manyItems{base, n}).Total()
	}
	const have = 256 << 20
	lo, hi := 1, 1<<30 // the largest n the check allows is in [lo, hi)
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; sizes(mid) <= have {
			lo = mid
		} else {
			hi = mid
		}
	}
	n := lo
	require.Greater(t, n, 50_000, "256 MiB holds the state of many items")
	src := itemRun(t, manyItems{base, n})
	steps := src.replay.steps
	program := []int32{calc.LOAD, calc.MUL, calc.ANS, calc.ANS, calc.ANS, calc.ANS}[:steps]
	reward := 1.0
	for i := range src.focus.fail[0] {
		src.focus.fail[0][i] = math.Ldexp(float64(i%977), -10) // exact binary fractions in 0..1, a float32 would lose
		e := &replayEntry{Level: 0, Item: i, Program: program, Reward: reward, Length: 3}
		src.replay.best[0][i] = e
		src.replay.order = append(src.replay.order, e)
	}
	src.focus.fail[0][n-1] = 1 - math.Ldexp(1, -52)
	src.focus.refresh()
	f, err := src.Checkpoint()
	require.NoError(t, err)
	b, err := checkpoint.Encode(f)
	require.NoError(t, err)
	require.Less(t, headerLength(b), 64<<10, "the header of a checkpoint of %d items", n)

	g, err := checkpoint.Decode(b)
	require.NoError(t, err)
	dst := itemRun(t, manyItems{base, n})
	require.NoError(t, dst.Restore(g))
	require.True(t, slices.Equal(src.focus.fail[0], dst.focus.fail[0]), "the failure rates, bit for bit")
	require.True(t, slices.Equal(src.focus.cdf[0], dst.focus.cdf[0]), "their cumulative weights")
	require.Len(t, dst.replay.order, n)
	for i, e := range dst.replay.order {
		require.Equal(t, *src.replay.order[i], *e, "entry %d", i)
	}
}

// TestReplayRewardIsWhatTheTaskPays: a crafted replay entry's reward was
// kept for ever on a user's task (which is not task.Interpreted, so any
// finite number passed): 2.0 where the task pays at most 1, 1e308. Each is
// now refused naming the entry, so is a NaN or an infinite one, and an
// entry of a level or an item out of range; the reward the task pays (as
// an engine sums it, in float32) restores.
func TestReplayRewardIsWhatTheTaskPays(t *testing.T) {
	it := newItemCalc(t, nil)
	src := itemRun(t, it)
	steps := src.replay.steps
	f, err := src.Checkpoint()
	require.NoError(t, err)
	program := []int32{calc.LOAD, calc.MUL, calc.ANS, calc.ANS, calc.ANS, calc.ANS}[:steps]
	entry := func(level, item int, reward float64) *replayEntry {
		return &replayEntry{Level: level, Item: item, Program: program, Reward: reward, Length: 3}
	}
	for _, r := range []float64{1, float64(float32(1.0 / 3)), 0, -0.5} {
		require.NoError(t, itemRun(t, it).Restore(withReplay(t, f, steps, entry(0, 1, r))), "a reward the task may pay: %v", r)
	}
	for _, c := range []struct {
		e    *replayEntry
		want string
	}{
		{entry(0, 1, 2.0), "replay_buffer[0]: reward 2 is more than the calc task pays this program (1)"},
		{entry(0, 1, 1e308), "replay_buffer[0]: reward 1e+308 is more than the calc task pays this program (1)"},
		{entry(0, 1, 1.001), "replay_buffer[0]: reward 1.001 is more than the calc task pays this program (1)"},
		{entry(0, 1, math.NaN()), "replay_buffer[0]: reward NaN is not a finite number"},
		{entry(0, 1, math.Inf(-1)), "replay_buffer[0]: reward -Inf is not a finite number"},
		{entry(2, 1, 1), "replay_buffer[0]: level 2 out of range 0..1"},
		{entry(-1, 0, 1), "replay_buffer[0]: level -1 out of range 0..1"},
		{entry(0, 3, 1), "replay_buffer[0]: item 3 out of range 0..2 of level 0"},
	} {
		tr := itemRun(t, it)
		err := tr.Restore(withReplay(t, f, steps, c.e))
		require.ErrorContains(t, err, "checkpoint item state: "+c.want)
		require.Empty(t, tr.replay.order, "a refused file changes nothing")
	}
}

// TestItemTensorsAreChecked: the item state's tensors are read as strictly
// as the model's: an unknown items.* tensor, one of another dtype or shape,
// a replay buffer missing one of its four tensors, an item state given both
// as tensors and as format 1's JSON, or none where the config needs one, is
// refused by name, and the run is left as it was.
func TestItemTensorsAreChecked(t *testing.T) {
	it := newItemCalc(t, nil)
	src := itemRun(t, it)
	f, err := src.Checkpoint()
	require.NoError(t, err)
	require.Equal(t, itemsFormat, f.Metadata["format"])
	edit := func(change func(g *checkpoint.File)) *checkpoint.File {
		g := *f
		g.Metadata = maps.Clone(f.Metadata)
		g.Tensors = slices.Clone(f.Tensors)
		change(&g)
		return &g
	}
	tensor := func(g *checkpoint.File, name string) *checkpoint.Tensor {
		for i := range g.Tensors {
			if g.Tensors[i].Name == name {
				return &g.Tensors[i]
			}
		}
		t.Fatalf("no tensor %s", name)
		return nil
	}
	for _, c := range []struct {
		name   string
		change func(g *checkpoint.File)
		want   string
	}{
		{"unknown", func(g *checkpoint.File) {
			g.Tensors = append(g.Tensors, checkpoint.Tensor{Name: "items.extra", Shape: []int{1}, Data: []float32{1}})
		}, `checkpoint has an unexpected tensor "items.extra" (not one of the item state's)`},
		{"fail as F32", func(g *checkpoint.File) {
			*tensor(g, itemFailName) = checkpoint.Tensor{Name: itemFailName, Shape: []int{6}, Data: make([]float32, 6)}
		}, "checkpoint tensor items.item_fail is F32 [6], want F64 [n]"},
		{"fail too short", func(g *checkpoint.File) {
			*tensor(g, itemFailName) = checkpoint.Tensor{Name: itemFailName, Shape: []int{5}, DType: checkpoint.F64, F64: make([]float64, 5)}
		}, "item_fail has 5 items, want 6 (the task's training items)"},
		{"program of another length", func(g *checkpoint.File) {
			*tensor(g, replayProgram) = checkpoint.Tensor{Name: replayProgram, Shape: []int{0, 3}, DType: checkpoint.I32, I32: []int32{}}
		}, fmt.Sprintf("checkpoint tensor items.replay_buffer.program is I32 [0 3], want I32 [0 %d]", src.replay.steps)},
		{"replay missing its rewards", func(g *checkpoint.File) {
			g.Tensors = slices.DeleteFunc(g.Tensors, func(t checkpoint.Tensor) bool { return t.Name == replayReward })
		}, "the replay buffer needs the tensors"},
		{"twice", func(g *checkpoint.File) { g.Metadata[itemsKey] = `{"item_fail":null,"replay_buffer":null}` },
			`checkpoint has its item state twice: in the metadata key "items" and as tensors`},
		{"none", func(g *checkpoint.File) {
			g.Tensors = slices.DeleteFunc(g.Tensors, func(t checkpoint.Tensor) bool { return isItemTensor(t.Name) })
		}, "checkpoint has no item state"},
	} {
		tr := itemRun(t, it)
		before, err := tr.Checkpoint()
		require.NoError(t, err)
		require.ErrorContains(t, tr.Restore(edit(c.change)), c.want, c.name)
		after, err := tr.Checkpoint()
		require.NoError(t, err)
		require.Equal(t, before.Tensors, after.Tensors, "%s: a refused file changes nothing", c.name)
	}
}
