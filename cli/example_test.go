package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/simdrl/simdrl/cli"
)

// A program that trains a task of its own is a main that imports the task's
// package, whose init function registers it (task.Register), and hands its
// arguments to Main:
//
//	import _ "example.com/mytask"
//
//	func main() { os.Exit(cli.Main(os.Args[1:])) }
//
// Then `mytask -task mytask -save run.st` trains it with every flag of
// simdrl (examples/customtask/cmd/maxdigit is a complete one). Here the
// built-in calc task stands in for it, trained for two updates with -save
// and -report.
func Example() {
	dir, err := os.MkdirTemp("", "simdrl-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	save, report := filepath.Join(dir, "run.st"), filepath.Join(dir, "run.json")

	code := cli.Main([]string{"-task", "calc", "-updates", "2", "-batch", "8", "-eval-every", "0",
		"-final-episodes", "0", "-explain", "0", "-quiet", "-save", save, "-report", report})

	raw, err := os.ReadFile(report)
	if err != nil {
		fmt.Println(err)
		return
	}
	var rep struct {
		Updates int
		Config  struct{ Task string }
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		fmt.Println(err)
		return
	}
	_, err = os.Stat(save)
	fmt.Printf("exit code %d: %d updates of the %s task, checkpoint saved: %v\n", code, rep.Updates, rep.Config.Task, err == nil)
	// Output:
	// exit code 0: 2 updates of the calc task, checkpoint saved: true
}
