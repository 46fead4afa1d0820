package customtask_test

import (
	"fmt"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"

	_ "github.com/simdrl/simdrl/examples/customtask" // registers "maxdigit"
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
	// [maxdigit]
	// update 1 of 600 rollout 2 steps, error: <nil>
}
