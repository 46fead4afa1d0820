package cluster

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func testSlurm(entries int) Slurm {
	return Slurm{Worker: []string{"/opt/simdrl bin/simdrl"}, Manifest: "/s/m.jsonl", Dir: "/s/runs", Entries: entries,
		MaxArraySize: DefaultMaxArraySize, Preempted: 75}
}

// directives is the script's #SBATCH lines.
func directives(script string) []string {
	var d []string
	for _, l := range strings.Split(script, "\n") {
		if o, ok := strings.CutPrefix(l, "#SBATCH "); ok {
			d = append(d, o)
		}
	}
	return d
}

func TestSlurmOneArray(t *testing.T) {
	s := testSlurm(8)
	s.Parallel = 3
	s.Sbatch = []string{"--time=0:10:00", "--partition=gpu"}
	arrays, err := s.Arrays()
	require.NoError(t, err)
	require.Len(t, arrays, 1)
	require.Equal(t, 0, arrays[0].Offset)
	require.Equal(t, 8, arrays[0].Count)
	require.Equal(t, []string{"--job-name=simdrl-sweep", "--array=0-7%3", "--signal=B:USR1@120", "--requeue",
		"--open-mode=append", "--output=/s/runs/logs/%A_%a.out", "--time=0:10:00", "--partition=gpu"}, directives(arrays[0].Script))
	require.Contains(t, arrays[0].Script, "index=$((SLURM_ARRAY_TASK_ID + 0))\n")
	require.Contains(t, arrays[0].Script, `'/opt/simdrl bin/simdrl' sweep run '/s/m.jsonl' --dir '/s/runs' --index "$index" &`)
	require.Contains(t, arrays[0].Script, `if [ -n "$warned" ] && [ "$code" -eq 75 ]; then`)
	require.Contains(t, arrays[0].Script, `scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"`)
}

// TestSlurmSplitsAtMaxArraySize: 2500 entries at Slurm's default
// MaxArraySize make arrays of 1001, 1001 and 498 tasks, each adding its
// offset to SLURM_ARRAY_TASK_ID; no throttle without --parallel.
func TestSlurmSplitsAtMaxArraySize(t *testing.T) {
	s := testSlurm(2*DefaultMaxArraySize + 498)
	arrays, err := s.Arrays()
	require.NoError(t, err)
	require.Len(t, arrays, 3)
	total := 0
	for i, a := range arrays {
		require.Equal(t, total, a.Offset, "array %d", i)
		total += a.Count
		require.Contains(t, directives(a.Script), fmt.Sprintf("--array=0-%d", a.Count-1))
		require.Contains(t, a.Script, fmt.Sprintf("index=$((SLURM_ARRAY_TASK_ID + %d))\n", a.Offset))
		require.Contains(t, a.Script, fmt.Sprintf("(array %d of 3)", i+1))
	}
	require.Equal(t, s.Entries, total)
	require.Equal(t, []int{DefaultMaxArraySize, DefaultMaxArraySize, 498}, []int{arrays[0].Count, arrays[1].Count, arrays[2].Count})

	s.Entries, s.MaxArraySize = DefaultMaxArraySize, DefaultMaxArraySize // exactly one full array
	arrays, err = s.Arrays()
	require.NoError(t, err)
	require.Len(t, arrays, 1)
	require.Contains(t, directives(arrays[0].Script), "--array=0-1000")
}

func TestSlurmRefuses(t *testing.T) {
	for name, change := range map[string]func(*Slurm){
		"no entries":      func(s *Slurm) { s.Entries = 0 },
		"max array 0":     func(s *Slurm) { s.MaxArraySize = 0 },
		"parallel < 0":    func(s *Slurm) { s.Parallel = -1 },
		"relative dir":    func(s *Slurm) { s.Dir = "runs" },
		"dir with space":  func(s *Slurm) { s.Dir = "/s/my runs" },
		"newline":         func(s *Slurm) { s.Manifest = "/s/m\n#SBATCH --x" },
		"not an option":   func(s *Slurm) { s.Sbatch = []string{"time=1"} },
		"option newline":  func(s *Slurm) { s.Sbatch = []string{"--time=1\nrm -rf /"} },
		"no worker given": func(s *Slurm) { s.Worker = nil },
	} {
		s := testSlurm(4)
		change(&s)
		_, err := s.Arrays()
		require.Error(t, err, name)
	}
}

func TestScriptPath(t *testing.T) {
	require.Equal(t, "/a/sweep.sbatch", ScriptPath("/a/sweep.sbatch", 0, 1))
	require.Equal(t, "/a/sweep-1.sbatch", ScriptPath("/a/sweep.sbatch", 1, 3))
	require.Equal(t, "/a/sweep-2", ScriptPath("/a/sweep", 2, 3))
}

// TestSlurmScriptForwardsAndRequeues runs the script under bash with a
// worker and an scontrol that stand in for the real ones: USR1 to the
// shell reaches the worker, whose preempted exit requeues the task; a
// worker that finishes is not requeued. Each step waits on the worker's
// word, never on a delay.
func TestSlurmScriptForwardsAndRequeues(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, stop := range []string{"USR1", "TERM", "none"} {
		t.Run(stop, func(t *testing.T) {
			dir := t.TempDir()
			bin := filepath.Join(dir, "bin")
			require.NoError(t, os.Mkdir(bin, 0o755))
			// The worker says its arguments, then waits for USR1 (exit 75,
			// the preempted code) or for a line on the FIFO release (exit
			// 0). A background job's stdin is /dev/null, hence the FIFO.
			release := filepath.Join(dir, "release")
			require.NoError(t, syscall.Mkfifo(release, 0o600))
			worker := filepath.Join(bin, "worker")
			require.NoError(t, os.WriteFile(worker, []byte(`#!/bin/bash
trap 'kill $reader; echo worker: got USR1; exit 75' USR1
trap 'kill $reader; echo worker: got TERM; exit 75' TERM
(read -r _ <`+release+`) &
reader=$!
echo "worker: args $*"
wait $reader
echo worker: done
`), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(bin, "scontrol"), []byte("#!/bin/sh\necho \"scontrol: $*\"\n"), 0o755))
			s := Slurm{Worker: []string{worker}, Manifest: "/m.jsonl", Dir: "/runs", Entries: 2000,
				MaxArraySize: 1000, Preempted: 75}
			arrays, err := s.Arrays()
			require.NoError(t, err)
			script := filepath.Join(dir, "job.sh")
			require.NoError(t, os.WriteFile(script, []byte(arrays[1].Script), 0o755))

			cmd := exec.Command("bash", script)
			cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "SLURM_ARRAY_TASK_ID=7", "SLURM_ARRAY_JOB_ID=41")
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			cmd.Stderr = cmd.Stdout
			require.NoError(t, cmd.Start())
			lines := bufio.NewScanner(out)
			require.True(t, lines.Scan())
			require.Equal(t, "worker: args sweep run /m.jsonl --dir /runs --index 1007", lines.Text())
			switch stop {
			case "USR1":
				require.NoError(t, cmd.Process.Signal(syscall.SIGUSR1))
			case "TERM":
				require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
			default:
				require.NoError(t, os.WriteFile(release, []byte("go\n"), 0o600))
			}
			var rest []string
			for lines.Scan() {
				rest = append(rest, lines.Text())
			}
			err = cmd.Wait()
			if stop != "none" {
				require.Equal(t, "worker: got "+stop, rest[0])
				if stop == "USR1" {
					require.Contains(t, rest, "scontrol: requeue 41_7", "warned of its time limit, the task requeues itself")
				} else {
					require.NotContains(t, strings.Join(rest, "\n"), "scontrol", "a TERM's sender requeues the task, or cancelled it")
				}
				var exit *exec.ExitError
				require.ErrorAs(t, err, &exit)
				require.Equal(t, 75, exit.ExitCode(), "the task's exit code is the worker's")
			} else {
				require.NoError(t, err)
				require.Equal(t, []string{"worker: done"}, rest)
			}
		})
	}
}
