package customtask_test

import (
	"fmt"
	"io"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/examples/customtask" // registers "maxdigit", "guess", "reverse" and "lock"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// A task from another module: its package registers it by name in an init
// function (task.Register), and every engine, checkpoint and resumption
// opens it by that name. Only the tasks a program imports are registered:
// simdrl's own come with tasks/builtin.
func Example() {
	fmt.Println(task.Names())
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Threads = "maxdigit", 1
	cfg, err := trainer.WithTask(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
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
	fmt.Println("update", st.Update, "of", cfg.Updates, "rollout", cfg.Steps, "steps, error:", err)
	// Output:
	// [guess lock maxdigit reverse]
	// update 1 of 10000 rollout 2 steps, error: <nil>
}

// A task written once, as a step function (customtask.Guess: guess the
// hidden digit from "lower" and "higher"): the engine steps its games, and
// the trainer's scores and explanations are derived from the same steps.
func Example_guess() {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Threads = customtask.GuessName, 1
	cfg, err := trainer.WithTask(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
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
	rep, err := trainer.Drive(tr, io.Discard, trainer.Options{Quiet: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("greedy solve rate %.2f\n", rep.Final.SolveRate[0])

	hidden7 := task.Instance{Budget: 4, Data: [task.DataWords]int64{7}}
	ex := task.Explain(e.Task(), &hidden7, []int32{4, 8, 7, 0})
	fmt.Println(ex.Trace, ex.Reward, ex.Correct)
	// Output:
	// greedy solve rate 1.00
	// [{4 obs higher · reward 0} {8 obs lower · reward 0} {7 obs equal · reward 1}] 1 true
}
