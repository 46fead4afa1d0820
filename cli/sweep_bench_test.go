package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSweepJobs: 20 seeds of the default recipe, one after another
// (--jobs 1) and two at once (--jobs 2), each run on one thread, in this
// process; the target on a 2-core machine is --jobs 2 within 1.15×
// half the one-after-another time (a perfect packing is half). Run it on a
// quiet machine (docs/performance.md has the figure and its command):
//
//	go test ./cli/ -run '^$' -bench SweepJobs -benchtime 1x -timeout 60m
func BenchmarkSweepJobs(b *testing.B) {
	dir := b.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(spec, []byte("seeds: {from: 0, to: 19}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	manifest := filepath.Join(dir, "manifest.jsonl")
	if code, _, stderr := sweepCLI("plan", spec, "-o", manifest); code != 0 {
		b.Fatal(stderr)
	}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				runs := filepath.Join(dir, fmt.Sprintf("jobs%d-%d", jobs, i))
				code, _, stderr := sweepCLI("run", manifest, "-dir", runs, "--jobs", fmt.Sprint(jobs), "--threads", "1")
				if code != 0 {
					b.Fatal(stderr)
				}
			}
		})
	}
}
