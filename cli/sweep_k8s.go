package cli

import (
	"fmt"
	"io"
	"path"
	"path/filepath"

	"github.com/simdrl/simdrl/internal/atomicfile"
	"github.com/simdrl/simdrl/internal/cluster"
	"github.com/simdrl/simdrl/sweep"
	flag "github.com/spf13/pflag"
)

func init() {
	addSweepVerb("k8s", "write a Kubernetes Indexed Job that runs a manifest, one completion an entry", sweepK8s)
}

// k8sFlags are `simdrl sweep k8s`'s flags.
type k8sFlags struct {
	image       *string
	dir         *string
	podManifest *string
	claim       *string
	name        *string
	parallelism *int
	backoff     *int
	grace       *int
	out         *string
	help        *bool
}

// newK8sFlags is `simdrl sweep k8s`'s flag set.
func newK8sFlags() (*flag.FlagSet, k8sFlags) {
	fs := flag.NewFlagSet("sweep k8s", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f k8sFlags
	f.image = fs.String("image", "", "the container image, with simdrl on its PATH (required)")
	f.dir = fs.String("dir", "/sweep", "where the volume is mounted in the pod: each run in DIR/<id>/")
	f.podManifest = fs.String("pod-manifest", "", "the manifest's path in the pod (default DIR/ and MANIFEST's file name: copy it into the volume)")
	f.claim = fs.String("claim", "simdrl-sweep", "the PersistentVolumeClaim mounted at DIR (every pod must see every run's directory)")
	f.name = fs.String("name", "simdrl-sweep", "the Job's name")
	f.parallelism = fs.Int("parallelism", 1, "pods running at once")
	f.backoff = fs.Int("backoff-limit-per-index", 3, "failures of one entry's pod before its index is failed (preemptions do not count)")
	f.grace = fs.Int("grace", 120, "seconds a pod has to save its run after SIGTERM (terminationGracePeriodSeconds)")
	f.out = fs.StringP("output", "o", "", "write the Job here (default: stdout)")
	f.help = fs.BoolP("help", "h", false, "show this help")
	return fs, f
}

// sweepK8s runs `simdrl sweep k8s MANIFEST --image IMG [-dir DIR]
// [--parallelism P] [--backoff-limit-per-index B] [-o FILE]`.
func sweepK8s(args []string, env Env) int {
	fs, f := newK8sFlags()
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "simdrl: sweep k8s: "+format+"\n", a...)
		return exitUsage
	}
	if err := fs.Parse(normalizeArgs(args, fs)); err != nil {
		return usage("%v", err)
	}
	if *f.help {
		fmt.Fprintf(env.Stdout, "Usage: simdrl sweep k8s MANIFEST --image IMG [-dir DIR] [--parallelism P] [--backoff-limit-per-index B] [-o FILE]\n\n"+
			"Writes a Kubernetes Indexed Job (kubectl apply -f) whose pod k runs `simdrl sweep run` on entry k\n"+
			"(JOB_COMPLETION_INDEX); a preempted pod (DisruptionTarget) saves its run and is not a failure, bad\n"+
			"input (exit 2) fails its index at once (docs/experiments.md).\n\n%s", fs.FlagUsages())
		return 0
	}
	if fs.NArg() != 1 {
		return usage("give one MANIFEST (simdrl sweep k8s -h)")
	}
	entries, err := sweep.ReadManifest(fs.Arg(0))
	if err != nil {
		return usage("%s: %v", fs.Arg(0), err)
	}
	if *f.podManifest == "" {
		*f.podManifest = path.Join(*f.dir, filepath.Base(fs.Arg(0)))
	}
	k := cluster.Kubernetes{Name: *f.name, Image: *f.image, Command: []string{"simdrl"}, Manifest: *f.podManifest, Dir: *f.dir,
		Claim: *f.claim, Entries: len(entries), Parallelism: *f.parallelism, BackoffLimitPerIndex: *f.backoff, GraceSeconds: *f.grace, Preempted: exitPreempted}
	job, err := k.YAML()
	if err != nil {
		return usage("%v", err)
	}
	if *f.out == "" {
		_, _ = env.Stdout.Write(job)
		return 0
	}
	if err := checkOutputs([]output{{"-o", *f.out}}, []output{{"MANIFEST", fs.Arg(0)}}); err != nil {
		return usage("%v", err)
	}
	if err := atomicfile.Write(*f.out, job); err != nil {
		fmt.Fprintf(env.Stderr, "simdrl: sweep k8s: -o: %v\n", err)
		return exitFail
	}
	return 0
}
