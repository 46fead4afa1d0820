package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// Command is one of simdrl's subcommands: `simdrl NAME args…` runs it with
// the arguments after NAME. `simdrl` with flags only (or none) is the train
// command: training is what the program does unless told otherwise.
type Command struct {
	Name    string // a lower-case word, as typed after the program's name
	Summary string // one line for `simdrl help`
	// Run runs the command and returns its exit code: 0 done, 1 failed,
	// 2 bad usage (one line on Stderr), 128+signal when interrupted.
	Run func(args []string, env Env) int
}

// Env is what a command runs with: its streams and the signals that
// interrupt it (nil: none). Commands that run others (a sweep runs train)
// hand them an Env of their own.
type Env struct {
	Stdout, Stderr io.Writer
	Signals        <-chan os.Signal
}

var (
	commandsMu sync.RWMutex
	commands   = map[string]Command{}
)

// commandName is what a subcommand's name may be: it must not look like a
// flag or a path, so that `simdrl -updates 5` and `simdrl run.st` stay
// what they were.
var commandName = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// RegisterCommand adds a subcommand, for every program that calls Main or
// Run: a plug-in main that imports a package registering one gets it, as
// Caddy's RegisterCommand does. Call it from an init function. Like
// task.Register it panics when the name is taken or not a lower-case word,
// or Run is nil: that is a programming error, not input.
func RegisterCommand(c Command) {
	commandsMu.Lock()
	defer commandsMu.Unlock()
	switch {
	case !commandName.MatchString(c.Name):
		panic(fmt.Sprintf("cli: RegisterCommand of %q: a name is a lower-case word (letters, digits, '-')", c.Name))
	case c.Run == nil:
		panic("cli: RegisterCommand of " + c.Name + " with a nil Run")
	case commands[c.Name].Run != nil:
		panic("cli: RegisterCommand called twice for " + c.Name)
	}
	commands[c.Name] = c
}

// lookupCommand is the command registered as name.
func lookupCommand(name string) (Command, bool) {
	commandsMu.RLock()
	defer commandsMu.RUnlock()
	c, ok := commands[name]
	return c, ok
}

// commandNames lists the registered commands, sorted.
func commandNames() []string {
	commandsMu.RLock()
	defer commandsMu.RUnlock()
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func init() {
	RegisterCommand(Command{Name: "train", Summary: "train a policy (the default: `simdrl -flags…` is `simdrl train -flags…`)",
		Run: func(args []string, env Env) int { return run(args, env.Stdout, env.Stderr, env.Signals) }})
	RegisterCommand(Command{Name: "help", Summary: "list the commands; `simdrl help NAME` is `simdrl NAME -h`", Run: helpCommand})
}

// Main runs the simdrl command line args (without the program's name, as
// os.Args[1:]) on os.Stdout and os.Stderr and returns its exit code, for
// os.Exit: Run with the standard streams.
func Main(args []string) int {
	return Run(args, os.Stdout, os.Stderr)
}

// Run runs the command line args on stdout and stderr and returns its exit
// code. The first argument names a subcommand (RegisterCommand); flags
// alone are the train command, so `simdrl` trains exactly as it always has.
// Any task registered with task.Register is accepted by -task.
//
// It handles SIGINT, SIGTERM and SIGUSR1 (a batch system's warning) while it runs: the first one during
// training stops at the next chunk, saves (-save), writes the report and the
// plot and returns 128+signal, as does one that comes while they are
// written (they are finished first); one before training begins, or a
// second request (a signal after the first one's burst: interrupts), exits
// the process at once with that code. It ignores SIGPIPE, so that a closed
// stdout (simdrl | head -1) cannot kill a run before it saves: a write that
// fails is dropped, and the run goes on.
func Run(args []string, stdout, stderr io.Writer) int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGUSR1)
	defer signal.Stop(sigs)
	signal.Ignore(syscall.SIGPIPE)
	return dispatch(args, Env{Stdout: &console{w: stdout}, Stderr: &console{w: stderr}, Signals: sigs})
}

// dispatch runs the subcommand args name, or train.
func dispatch(args []string, env Env) int {
	name := "train"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		if !commandName.MatchString(args[0]) {
			fmt.Fprintf(env.Stderr, "simdrl: unexpected argument %q (flags only; see -h)\n", args[0])
			return exitUsage
		}
		name, args = args[0], args[1:]
	}
	c, ok := lookupCommand(name)
	if !ok {
		fmt.Fprintf(env.Stderr, "simdrl: unknown command %q (commands: %s; simdrl help)\n", name, strings.Join(commandNames(), ", "))
		return exitUsage
	}
	return c.Run(args, env)
}

// helpCommand lists the commands, or shows one's -h.
func helpCommand(args []string, env Env) int {
	if len(args) > 0 {
		if _, ok := lookupCommand(args[0]); !ok || args[0] == "help" {
			fmt.Fprintf(env.Stderr, "simdrl: help: unknown command %q (commands: %s)\n", args[0], strings.Join(commandNames(), ", "))
			return exitUsage
		}
		return dispatch([]string{args[0], "-h"}, env)
	}
	fmt.Fprintf(env.Stdout, "Usage: simdrl [COMMAND] [flags]\n\nCommands:\n")
	for _, n := range commandNames() {
		c, _ := lookupCommand(n)
		fmt.Fprintf(env.Stdout, "  %-8s %s\n", n, c.Summary)
	}
	fmt.Fprintf(env.Stdout, "\nWithout a command, simdrl trains: simdrl -h lists the training flags.\n")
	return 0
}
