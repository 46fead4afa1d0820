// Command countdownbaselines prints the policy-free baselines of the
// Countdown and 24 Game tasks on their held-out instances
// (countdowntask.Baselines), as a markdown table (docs/results.md).
//
//	go run ./scripts/countdownbaselines -seed 1 [-task-spec revisit=off]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/simdrl/simdrl/tasks/countdowntask"
)

func main() {
	seed := flag.Uint64("seed", 1, "the random players' seed")
	spec := flag.String("task-spec", "", "the tasks' options (revisit=off: the no-revisit rule)")
	flag.Parse()
	fmt.Println("| task | held-out instances | budget | random legal moves | blind DFS with UNDO | random program pass@1 | pass@16 | brute force (DFS steps: median / most) |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, name := range []string{"countdown3", "countdown4", "game24"} {
		rows, err := countdowntask.Baselines(name, *spec, []int{64, 128, 256}, *seed)
		if err != nil {
			fmt.Fprintln(os.Stderr, "countdownbaselines:", err)
			os.Exit(1)
		}
		for _, r := range rows {
			fmt.Printf("| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | 1.000 (%d / %d) |\n",
				r.Task, r.Instances, r.Budget, r.Random, r.DFS, r.Pass1, r.Pass16, r.BruteMed, r.BruteMax)
		}
	}
}
