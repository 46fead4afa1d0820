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

// sweepK8s runs `simdrl sweep k8s MANIFEST --image IMG [-dir DIR]
// [--parallelism P] [--backoff-limit-per-index B] [-o FILE]`.
func sweepK8s(args []string, env Env) int {
	fs := flag.NewFlagSet("sweep k8s", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	image := fs.String("image", "", "the container image, with simdrl on its PATH (required)")
	dir := fs.String("dir", "/sweep", "where the volume is mounted in the pod: each run in DIR/<id>/")
	podManifest := fs.String("pod-manifest", "", "the manifest's path in the pod (default DIR/ and MANIFEST's file name: copy it into the volume)")
	claim := fs.String("claim", "simdrl-sweep", "the PersistentVolumeClaim mounted at DIR (every pod must see every run's directory)")
	name := fs.String("name", "simdrl-sweep", "the Job's name")
	parallelism := fs.Int("parallelism", 1, "pods running at once")
	backoff := fs.Int("backoff-limit-per-index", 3, "failures of one entry's pod before its index is failed (preemptions do not count)")
	grace := fs.Int("grace", 120, "seconds a pod has to save its run after SIGTERM (terminationGracePeriodSeconds)")
	out := fs.StringP("output", "o", "", "write the Job here (default: stdout)")
	help := fs.BoolP("help", "h", false, "show this help")
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "simdrl: sweep k8s: "+format+"\n", a...)
		return exitUsage
	}
	if err := fs.Parse(normalizeArgs(args, fs)); err != nil {
		return usage("%v", err)
	}
	if *help {
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
	if *podManifest == "" {
		*podManifest = path.Join(*dir, filepath.Base(fs.Arg(0)))
	}
	k := cluster.Kubernetes{Name: *name, Image: *image, Command: []string{"simdrl"}, Manifest: *podManifest, Dir: *dir,
		Claim: *claim, Entries: len(entries), Parallelism: *parallelism, BackoffLimitPerIndex: *backoff, GraceSeconds: *grace}
	job, err := k.YAML()
	if err != nil {
		return usage("%v", err)
	}
	if *out == "" {
		_, _ = env.Stdout.Write(job)
		return 0
	}
	if err := checkOutputs([]output{{"-o", *out}}, []output{{"MANIFEST", fs.Arg(0)}}); err != nil {
		return usage("%v", err)
	}
	if err := atomicfile.Write(*out, job); err != nil {
		fmt.Fprintf(env.Stderr, "simdrl: sweep k8s: -o: %v\n", err)
		return exitFail
	}
	return 0
}
