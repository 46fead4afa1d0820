package cpu_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// smallRecipe is the default recipe shrunk so that an update takes
// milliseconds: a narrow GRU and a small batch in one chunk.
func smallRecipe() trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Chunk, cfg.Hidden, cfg.Threads = 32, 32, 16, 2
	return cfg
}

// Build the CPU engine for a configuration, a trainer to drive it, and run
// one training update. (Printed are only numbers that every kernel backend
// gives alike: the floats themselves round differently on avx2, avx512, neon
// and generic.)
func ExampleNew() {
	cfg := smallRecipe()
	e, err := cpu.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	tr, err := trainer.New(cfg, e.Task(), e)
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := tr.Update()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("update:", st.Update, "of", cfg.Updates)
	fmt.Println("finite loss:", !math.IsNaN(st.Loss.Total) && !math.IsInf(st.Loss.Total, 0))
	fmt.Println("solve rate in [0, 1]:", st.SolveRate >= 0 && st.SolveRate <= 1)
	// Output:
	// update: 1 of 600
	// finite loss: true
	// solve rate in [0, 1]: true
}

// Train a few updates, save a checkpoint, and evaluate it in a fresh engine
// built from the configuration the file carries: the same parameters, so the
// same greedy solve rates.
func Example_evaluateCheckpoint() {
	dir, err := os.MkdirTemp("", "simdrl-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "run.safetensors")

	trained, err := cpu.New(smallRecipe())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer trained.Close()
	run, err := trainer.New(smallRecipe(), trained.Task(), trained)
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 3 {
		if _, err := run.Update(); err != nil {
			fmt.Println(err)
			return
		}
	}
	f, err := run.Checkpoint()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := checkpoint.WriteFile(path, f); err != nil {
		fmt.Println(err)
		return
	}

	f, err = checkpoint.ReadFile(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := trainer.CheckpointConfig(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	loaded, err := cpu.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer loaded.Close()
	fresh, err := trainer.New(cfg, loaded.Task(), loaded)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := fresh.LoadWeights(f); err != nil {
		fmt.Println(err)
		return
	}
	ev, err := loaded.EvaluateAll(100, enginekit.FinalRound, task.HeldOut)
	if err != nil {
		fmt.Println(err)
		return
	}
	want, _ := trained.EvaluateAll(100, enginekit.FinalRound, task.HeldOut)
	p1, _ := trained.Params()
	p2, _ := loaded.Params()
	same := len(ev) == len(want)
	for i := range ev {
		same = same && ev[i] == want[i]
	}
	fmt.Println("levels evaluated:", len(ev))
	fmt.Println("same parameters:", slices.Equal(p1, p2))
	fmt.Println("same solve rates:", same)
	// Output:
	// levels evaluated: 3
	// same parameters: true
	// same solve rates: true
}
