package cluster

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"text/template"
)

// DefaultMaxArraySize is Slurm's MaxArraySize when slurm.conf does not set
// it: an array's indices run from 0 to MaxArraySize-1.
const DefaultMaxArraySize = 1001

// Slurm is a sweep to run as Slurm job arrays.
type Slurm struct {
	Worker   []string // the worker's command before "sweep run": the simdrl binary, by absolute path
	Manifest string   // absolute
	Dir      string   // the sweep's directory, absolute: DIR/<id>/ per run, DIR/logs/ for the tasks' logs
	Entries  int      // the manifest's entries
	// Parallel throttles each array to this many tasks at once (%K); 0 does not.
	Parallel int
	// MaxArraySize is the site's (scontrol show config | grep MaxArraySize):
	// an array holds at most this many tasks, so a bigger sweep is split.
	MaxArraySize int
	Sbatch       []string // more sbatch options, one #SBATCH line each (--time=1:00:00, --partition=…)
	// Preempted is the worker's exit code after a USR1 or TERM made it save
	// and stop: the task is then requeued, to resume from its checkpoint.
	Preempted int
}

// Array is one job array's script: entries Offset … Offset+Count-1.
type Array struct {
	Offset, Count int
	Script        string
}

// Arrays splits the sweep into arrays of at most MaxArraySize tasks and
// writes each one's sbatch script.
func (s Slurm) Arrays() ([]Array, error) {
	switch {
	case s.Entries < 1:
		return nil, errors.New("the manifest has no entries: nothing to run")
	case s.MaxArraySize < 1:
		return nil, fmt.Errorf("--max-array-size %d: it must be at least 1", s.MaxArraySize)
	case s.Parallel < 0:
		return nil, fmt.Errorf("--parallel %d: it must be 0 (no throttle) or more", s.Parallel)
	case len(s.Worker) == 0:
		return nil, errors.New("no worker command")
	case !filepath.IsAbs(s.Manifest) || !filepath.IsAbs(s.Dir):
		return nil, fmt.Errorf("the manifest %s and the directory %s must be absolute paths: a job starts wherever Slurm puts it", s.Manifest, s.Dir)
	}
	for _, v := range append(append([]string{s.Manifest, s.Dir}, s.Worker...), s.Sbatch...) {
		if err := oneLine("the argument", v); err != nil {
			return nil, err
		}
	}
	if strings.ContainsAny(s.Dir, " \t") {
		return nil, fmt.Errorf("the directory %q has a space in it: an #SBATCH --output line cannot hold one", s.Dir)
	}
	for _, o := range s.Sbatch {
		if !strings.HasPrefix(o, "-") {
			return nil, fmt.Errorf("--sbatch %q: an sbatch option starts with '-' (--sbatch=--time=1:00:00)", o)
		}
	}
	var arrays []Array
	for off := 0; off < s.Entries; off += s.MaxArraySize {
		n := min(s.MaxArraySize, s.Entries-off)
		script, err := s.script(off, n, len(arrays), (s.Entries+s.MaxArraySize-1)/s.MaxArraySize)
		if err != nil {
			return nil, err
		}
		arrays = append(arrays, Array{Offset: off, Count: n, Script: script})
	}
	return arrays, nil
}

// slurmScript is one array's sbatch script. The worker runs in the
// background so that the shell's traps run at once (bash runs a trap only
// between commands, or by cutting a wait short). USR1 (Slurm's warning
// before the time limit, --signal=B:USR1@120, sent to this shell alone) is
// passed on: the worker saves its checkpoint and exits with the preempted
// code, and the script requeues the task, whose next attempt resumes the
// run. TERM (a preemption, scontrol requeue, scancel) is passed on too
// (Slurm sends it to the worker as well, and the worker takes a copy that
// close behind for the same request): the worker saves; Slurm requeues a
// preempted or requeued task itself, and a cancelled one stays cancelled.
var slurmScript = template.Must(template.New("sbatch").Parse(`#!/bin/bash
#SBATCH --job-name=simdrl-sweep
#SBATCH --array=0-{{.Last}}{{if .Parallel}}%{{.Parallel}}{{end}}
#SBATCH --signal=B:USR1@120
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output={{.Log}}
{{- range .Sbatch}}
#SBATCH {{.}}
{{- end}}
# Written by simdrl sweep slurm: entries {{.Offset}} to {{.End}} of {{.Entries}} (array {{.Array}} of {{.Arrays}}) of
# {{.Manifest}}
# Each task runs one entry in {{.Dir}}/<id>/; a finished entry is skipped, an interrupted one resumes.
set -u
index=$((SLURM_ARRAY_TASK_ID + {{.Offset}}))
# The traps come first: a signal between the worker's start and a trap
# set after it would kill this shell and leave the worker unsaved.
worker=
warned=
trap 'warned=1; [ -n "$worker" ] && kill -USR1 "$worker" 2>/dev/null' USR1
trap '[ -n "$worker" ] && kill -TERM "$worker" 2>/dev/null' TERM
{{.Worker}} sweep run {{.ManifestQ}} --dir {{.DirQ}} --index "$index" &
worker=$!
# A trap cuts wait short while the worker still runs: wait again until it
# has exited; the last wait returns its own status (bash keeps it).
while kill -0 "$worker" 2>/dev/null; do
	wait "$worker"
done
wait "$worker"
code=$?
# Requeued after the time-limit warning only: a preemption or scontrol
# requeue (TERM) requeues the task itself, and scancel (TERM) must not.
if [ -n "$warned" ] && [ "$code" -eq {{.Preempted}} ]; then
	echo "simdrl sweep slurm: entry $index saved and stopped (exit $code): requeueing ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}" >&2
	scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}" ||
		echo "simdrl sweep slurm: scontrol requeue failed (a requeue already under way, or the task not requeueable)" >&2
fi
exit "$code"
`))

func (s Slurm) script(offset, count, array, arrays int) (string, error) {
	var b bytes.Buffer
	err := slurmScript.Execute(&b, map[string]any{
		"Last": count - 1, "Parallel": s.Parallel, "Log": filepath.Join(s.Dir, "logs", "%A_%a.out"),
		"Sbatch": s.Sbatch, "Offset": offset, "End": offset + count - 1, "Entries": s.Entries,
		"Array": array + 1, "Arrays": arrays, "Manifest": s.Manifest, "Dir": s.Dir,
		"Worker": shellWords(s.Worker), "ManifestQ": shellQuote(s.Manifest), "DirQ": shellQuote(s.Dir),
		"Preempted": s.Preempted,
	})
	return b.String(), err
}

// ScriptPath is where array i of n is written, given -o path: path itself
// for a single array, path with -i before its extension for several
// (sweep.sbatch: sweep-0.sbatch, sweep-1.sbatch, …).
func ScriptPath(path string, i, n int) string {
	if n == 1 {
		return path
	}
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), i, ext)
}
