package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// childEnv, in the environment, makes the test binary run as the command
// instead of running the tests (TestMain), with the holds its value names
// (childMain). A signal test then starts a real process, with no build, and
// sends its signals on the child's events, never after a delay.
const childEnv = "SIMDRL_CLI_TEST_CHILD"

func TestMain(m *testing.M) {
	if holds, ok := os.LookupEnv(childEnv); ok {
		os.Exit(childMain(holds, os.Args[1:]))
	}
	code := m.Run()
	removeBuilt()
	os.Exit(code)
}

// childMain runs Main on args with the hooks that holds names (a
// comma-separated list), each telling of itself by a line "child: …" on
// stderr:
//
//	at=M      at milestone M (hooks.at): "child: at M", then never go on
//	          (only a signal ends the process)
//	hold=N    after update N: "child: held at update N", then wait for the
//	          first signal to be handled (the interrupt's channel closed)
//	stall=N   after update N: "child: stalled at update N", then never go
//	          on (an update that never reaches its next check)
//	late=M    (a sweep's runs, in one process) the second and later runs
//	          to reach milestone M: "child: late at M", then wait until a
//	          handed-on signal stops a run in its setup ("stopping")
//
// Every milestone is told ("child: M") whatever the holds. The first
// signal's burst ends when stdin is closed ("child: settled" once the
// watcher has taken it): a test that never closes it makes every later
// signal a copy of the first.
func childMain(holds string, args []string) int {
	say := func(format string, a ...any) { fmt.Fprintf(os.Stderr, "child: "+format+"\n", a...) }
	hooks.settle = func() <-chan time.Time {
		end := make(chan time.Time)
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			end <- time.Time{} // returns once the watcher has taken it
			say("settled")
		}()
		return end
	}
	hooks.at = func(m string) { say("%s", m) }
	for _, h := range strings.Split(holds, ",") {
		kind, arg, _ := strings.Cut(h, "=")
		switch kind {
		case "at":
			hooks.at = func(m string) {
				say("%s", m)
				if m == arg {
					say("at %s", m)
					never()
				}
			}
		case "late":
			var mu sync.Mutex
			reached := 0
			stopping := make(chan struct{})
			hooks.at = func(m string) {
				say("%s", m)
				mu.Lock()
				switch {
				case m == "stopping" && stopping != nil:
					close(stopping)
					stopping = nil
				case m == arg:
					reached++
				}
				late, wait := m == arg && reached > 1, stopping
				mu.Unlock()
				if late && wait != nil {
					say("late at %s", m)
					<-wait
				}
			}
		case "hold", "stall":
			n, err := strconv.Atoi(arg)
			if err != nil {
				say("bad hold %q", h)
				return 3
			}
			hooks.updated = func(u int, stop <-chan struct{}) {
				if u != n {
					return
				}
				if kind == "hold" {
					say("held at update %d", u)
					<-stop
					return
				}
				say("stalled at update %d", u)
				never()
			}
		}
	}
	return Main(args)
}

// never blocks its goroutine for good (a sleep, so that the runtime never
// takes the process for deadlocked; nothing waits for it to end).
func never() {
	for {
		time.Sleep(time.Hour)
	}
}

// child is the test binary started as the command (childMain), its stderr
// read line by line.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	mu    sync.Mutex
	seen  strings.Builder // stderr so far
}

// startChild starts the command with args and holds (childMain); in a
// process group of its own when group is set (its id the child's pid).
func startChild(t *testing.T, holds string, group bool, args ...string) *child {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"="+holds)
	cmd.Stdout = &bytes.Buffer{}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: group}
	c := &child{cmd: cmd, lines: make(chan string, 1024)}
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	c.stdin = stdin
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() }) // after Wait: a no-op
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			c.mu.Lock()
			c.seen.WriteString(sc.Text() + "\n")
			c.mu.Unlock()
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	return c
}

func (c *child) stderr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen.String()
}

// await reads stderr until a line contains want; its end first fails.
func (c *child) await(t *testing.T, want string) {
	for line := range c.lines {
		if strings.Contains(line, want) {
			return
		}
	}
	t.Fatalf("the command ended without %q on stderr: %s", want, c.stderr())
}

// signal sends sig to the child (group false) or to its process group.
func (c *child) signal(t *testing.T, sig syscall.Signal, group bool) {
	pid := c.cmd.Process.Pid
	if group {
		pid = -pid
	}
	require.NoError(t, syscall.Kill(pid, sig))
}

// exit waits for the command to end and returns its exit code and stderr;
// one killed by a signal it did not handle fails.
func (c *child) exit(t *testing.T) (int, string) {
	for range c.lines {
	}
	err := c.cmd.Wait()
	if err == nil {
		return 0, c.stderr()
	}
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr, c.stderr())
	require.NotEqualf(t, -1, exitErr.ExitCode(), "killed by a signal it did not handle (%v): %s", err, c.stderr())
	return exitErr.ExitCode(), c.stderr()
}
