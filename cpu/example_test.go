package cpu_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

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

// Build the CPU engine for a configuration and run one training update.
// (Printed are only numbers that every kernel backend gives alike: the
// floats themselves round differently on avx2, avx512, neon and generic.)
func ExampleNew() {
	e, err := cpu.New(smallRecipe())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	st, err := e.Update()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("update:", st.Update, "of", e.Config().Updates)
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
	for range 3 {
		if _, err := trained.Update(); err != nil {
			fmt.Println(err)
			return
		}
	}
	f, err := trained.Checkpoint()
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
	if err := loaded.LoadWeights(f); err != nil {
		fmt.Println(err)
		return
	}
	ev, err := loaded.EvaluateAll(100, enginekit.FinalRound, task.HeldOut)
	if err != nil {
		fmt.Println(err)
		return
	}
	want, _ := trained.EvaluateAll(100, enginekit.FinalRound, task.HeldOut)
	h1, _ := trained.ParamSHA256()
	h2, _ := loaded.ParamSHA256()
	same := len(ev) == len(want)
	for i := range ev {
		same = same && ev[i] == want[i]
	}
	fmt.Println("stages evaluated:", len(ev))
	fmt.Println("parameter hashes match:", h1 == h2)
	fmt.Println("same solve rates:", same)
	// Output:
	// stages evaluated: 3
	// parameter hashes match: true
	// same solve rates: true
}
