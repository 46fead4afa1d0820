package cli

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/simdrl/simdrl/internal/atomicfile"
	"github.com/simdrl/simdrl/internal/cluster"
	"github.com/simdrl/simdrl/sweep"
	flag "github.com/spf13/pflag"
)

func init() {
	addSweepVerb("slurm", "write (and with --submit, submit) Slurm job arrays that run a manifest, requeued on preemption", sweepSlurm)
}

// slurmFlags are `simdrl sweep slurm`'s flags.
type slurmFlags struct {
	dir      *string
	out      *string
	submit   *bool
	parallel *int
	maxArray *int
	sbatch   *[]string
	help     *bool
}

// newSlurmFlags is `simdrl sweep slurm`'s flag set.
func newSlurmFlags() (*flag.FlagSet, slurmFlags) {
	fs := flag.NewFlagSet("sweep slurm", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f slurmFlags
	f.dir = fs.String("dir", "runs", "the sweep's directory: each run in DIR/<id>/, the tasks' logs in DIR/logs/")
	f.out = fs.StringP("output", "o", "", "write the script here (default DIR/sweep.sbatch; several arrays: -0, -1, … before the extension)")
	f.submit = fs.Bool("submit", false, "submit the scripts with sbatch and print the job ids")
	f.parallel = fs.Int("parallel", 0, "run at most K tasks of an array at once (--array=…%K; 0: as many as Slurm gives)")
	f.maxArray = fs.Int("max-array-size", cluster.DefaultMaxArraySize, "the site's MaxArraySize (scontrol show config): bigger sweeps are split into several arrays")
	f.sbatch = fs.StringArray("sbatch", nil, "an sbatch option for every array, one #SBATCH line (--sbatch=--time=2:00:00; repeat it)")
	f.help = fs.BoolP("help", "h", false, "show this help")
	return fs, f
}

// sweepSlurm runs `simdrl sweep slurm MANIFEST [-dir DIR] [--submit]
// [--parallel K] [--max-array-size N] [--sbatch OPT]… [-o SCRIPT]`.
func sweepSlurm(args []string, env Env) int {
	fs, f := newSlurmFlags()
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "simdrl: sweep slurm: "+format+"\n", a...)
		return exitUsage
	}
	failed := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "simdrl: sweep slurm: "+format+"\n", a...)
		return exitFail
	}
	if err := fs.Parse(normalizeArgs(args, fs)); err != nil {
		return usage("%v", err)
	}
	if *f.help {
		fmt.Fprintf(env.Stdout, "Usage: simdrl sweep slurm MANIFEST [-dir DIR] [--submit] [--parallel K] [--sbatch OPT]… [-o SCRIPT]\n\n"+
			"Writes an sbatch job array that runs MANIFEST's entries with `simdrl sweep run`, one task an entry,\n"+
			"each logged to DIR/logs/JOB_TASK.out; a task warned by USR1 (--signal=B:USR1@120) or stopped by\n"+
			"TERM saves its run and is requeued, to resume it (docs/experiments.md).\n\n%s", fs.FlagUsages())
		return 0
	}
	if fs.NArg() != 1 {
		return usage("give one MANIFEST (simdrl sweep slurm -h)")
	}
	manifest, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		return usage("%v", err)
	}
	entries, err := sweep.ReadManifest(manifest)
	if err != nil {
		return usage("%s: %v", fs.Arg(0), err)
	}
	absDir, err := filepath.Abs(*f.dir)
	if err != nil {
		return usage("-dir: %v", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return failed("cannot find this program to run as the worker: %v", err)
	}
	s := cluster.Slurm{Worker: []string{exe}, Manifest: manifest, Dir: absDir, Entries: len(entries),
		Parallel: *f.parallel, MaxArraySize: *f.maxArray, Sbatch: *f.sbatch,
		Preempted: exitPreempted}
	arrays, err := s.Arrays()
	if err != nil {
		return usage("%v", err)
	}
	script := *f.out
	if script == "" {
		script = filepath.Join(absDir, "sweep.sbatch")
	}
	// Slurm opens each task's log before the task runs: its directory must be there.
	if err := os.MkdirAll(filepath.Join(absDir, "logs"), 0o755); err != nil {
		return failed("%v", err)
	}
	var paths []string
	for i, a := range arrays {
		p := cluster.ScriptPath(script, i, len(arrays))
		if err := atomicfile.Write(p, []byte(a.Script)); err != nil {
			return failed("-o: %v", err)
		}
		_ = os.Chmod(p, 0o755) // a script one may also run by hand; atomicfile keeps an existing file's mode
		paths = append(paths, p)
		fmt.Fprintf(env.Stderr, "simdrl: sweep slurm: %s: entries %d to %d of %d\n", p, a.Offset, a.Offset+a.Count-1, len(entries))
	}
	if !*f.submit {
		fmt.Fprintf(env.Stdout, "sbatch %s\n", strings.Join(paths, "\nsbatch "))
		return 0
	}
	for _, p := range paths {
		cmd := exec.Command("sbatch", "--parsable", p)
		cmd.Stderr = env.Stderr
		id, err := cmd.Output()
		if err != nil {
			return failed("sbatch %s: %v", p, err)
		}
		fmt.Fprintf(env.Stdout, "%s\n", strings.TrimSpace(string(id)))
	}
	return 0
}
