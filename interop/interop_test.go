package interop_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

const (
	steps      = 6
	perLevel   = 20
	tieMargin  = 1e-5 // programs may differ only where two logits are this close
	script     = "../scripts/torch_interop.py"
	defaultPy  = "/usr/bin/python3"
	modelSeed  = 31 // with the perturbation below: varied programs, solves in every level
	taskSeed   = 11
	piScale    = 3
	toolBoost  = 0.3
	answerLift = 0.3
)

// python is the interpreter the interop test runs: $SIMDRL_PYTHON, or
// /usr/bin/python3 (where Debian's python3-torch installs torch).
func python() string {
	if p := os.Getenv("SIMDRL_PYTHON"); p != "" {
		return p
	}
	return defaultPy
}

// torchRequired says whether SIMDRL_TEST_REQUIRE (a comma-separated list)
// names torch: then a missing interpreter or torch fails the test.
func torchRequired() bool {
	return slices.Contains(strings.Split(os.Getenv("SIMDRL_TEST_REQUIRE"), ","), "torch")
}

// torchMissing returns why py cannot run the interop script ("" when it can).
func torchMissing(py string) string {
	path, err := exec.LookPath(py)
	if err != nil {
		return fmt.Sprintf("no Python interpreter %s: %v", py, err)
	}
	out, err := exec.Command(path, "-c", "import torch; print(torch.__version__)").CombinedOutput()
	if err != nil {
		return fmt.Sprintf("%s cannot import torch (%v): %s", path, err, strings.TrimSpace(lastLine(out)))
	}
	return ""
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// needTorch returns the interpreter to use, or skips the test (fails it when
// torch is required) with the reason.
// Under -short it skips unless torch is required: each check starts
// Python and imports torch (seconds a model kind), and the full run and
// CI's interop step run it.
func needTorch(t *testing.T) string {
	t.Helper()
	if testing.Short() && !torchRequired() {
		t.Skip("-short: the PyTorch interop check runs in the full `go test ./...` (and with SIMDRL_TEST_REQUIRE=torch)")
	}
	py := python()
	if why := torchMissing(py); why != "" {
		if torchRequired() {
			t.Fatalf("SIMDRL_TEST_REQUIRE=torch but %s (install python3-torch or set SIMDRL_PYTHON)", why)
		}
		t.Skipf("%s; install python3-torch (or set SIMDRL_PYTHON) to run the PyTorch interop check", why)
	}
	return py
}

func TestTorchMissingReason(t *testing.T) {
	why := torchMissing("/nonexistent/python3")
	require.Contains(t, why, "no Python interpreter /nonexistent/python3")
	t.Setenv("SIMDRL_TEST_REQUIRE", "golden,torch")
	require.True(t, torchRequired())
	t.Setenv("SIMDRL_TEST_REQUIRE", "")
	require.False(t, torchRequired())
}

// model returns initialised parameters, perturbed so that greedy programs
// vary with the context and sometimes solve the task: pi.weight scaled up,
// the tool tokens and ANS favoured a little.
func model(t *testing.T, read bool) (*gru.Layout, []float32) {
	l, err := gru.NewLayout(gru.Config{Vocab: seed.Vocab, Hidden: 96, Levels: seed.NumLevels, Read: read,
		Shown: seed.ContextLen(seed.NumLevels - 1)})
	require.NoError(t, err)
	params := make([]float32, l.Size)
	l.Init(params, modelSeed)
	piw := l.PiW.View(params)
	for i := range piw {
		piw[i] *= piScale
	}
	pib := l.PiB.View(params)
	for a := seed.MUL; a <= seed.RCL; a++ {
		pib[a] += toolBoost
	}
	pib[seed.ANS] += answerLift
	return l, params
}

// writeCheckpoint saves params under their PyTorch names in the layout's
// order, with optimizer tensors and metadata that the script must ignore,
// but for the config's context (a reading model, gru.Config.Read).
func writeCheckpoint(t *testing.T, path string, l *gru.Layout, params []float32) {
	config := `{"hidden": 96, "vocab": 18, "stages": 3}`
	if l.Read {
		config = `{"hidden": 96, "vocab": 18, "stages": 3, "context": "read"}`
	}
	f := &checkpoint.File{Metadata: map[string]string{
		"format": "pt", "producer": "simdrl interop test", "update": "0", "config": config,
	}}
	for _, tn := range l.Tensors {
		f.Tensors = append(f.Tensors, checkpoint.Tensor{Name: tn.Name, Shape: slices.Clone(tn.Shape), Data: slices.Clone(tn.View(params))})
	}
	for _, tn := range l.Tensors {
		m := make([]float32, tn.Size)
		for i := range m {
			m[i] = float32(i%7) * 1e-3
		}
		f.Tensors = append(f.Tensors, checkpoint.Tensor{Name: "optimizer.m." + tn.Name, Shape: slices.Clone(tn.Shape), Data: m})
	}
	f.Tensors = append(f.Tensors, checkpoint.Tensor{Name: "optimizer.step", Shape: []int{}, Data: []float32{0}})
	require.NoError(t, checkpoint.WriteFile(path, f))
}

type context struct {
	Level  int    `json:"stage"`
	Digits [5]int `json:"digits"`
}

// torchResult is the script's output: PyTorch's greedy programs only; the
// Go environment scores them.
type torchResult struct {
	Programs [][]int32  `json:"programs"`
	Tokens   [][]string `json:"tokens"` // the programs spelled with the task's token names
}

func TestTorchInterop(t *testing.T) { torchInterop(t, false) }

// TestTorchInteropReading is TestTorchInterop for a model that reads its
// context (-context read): the script reads the checkpoint config's context.
func TestTorchInteropReading(t *testing.T) { torchInterop(t, true) }

func torchInterop(t *testing.T, read bool) {
	py := needTorch(t)
	dir := t.TempDir()
	l, params := model(t, read)
	ckpt := filepath.Join(dir, "model.safetensors")
	writeCheckpoint(t, ckpt, l, params)

	// 20 contexts per level, drawn as evaluation tasks.
	key := rng.NewKey(taskSeed)
	var tasks []seed.Task
	var ctxs []context
	for s := 0; s < seed.NumLevels; s++ {
		for i := 0; i < perLevel; i++ {
			task := seed.DrawTask(key, 0, uint32(s*perLevel+i), rng.PurposeEval, s)
			tasks = append(tasks, task)
			ctxs = append(ctxs, context{Level: s, Digits: task.Digits})
		}
	}
	spec, err := json.Marshal(map[string]any{"contexts": ctxs, "steps": steps})
	require.NoError(t, err)
	ctxPath := filepath.Join(dir, "contexts.json")
	require.NoError(t, os.WriteFile(ctxPath, spec, 0o644))

	// simdrl's greedy programs, their decision margins, rewards, solve rates.
	n := len(tasks)
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	w, err := gru.NewWorkspace(l, n, steps)
	require.NoError(t, err)
	w.Reset(n)
	var buf [gru.MaxContext]int32
	for b, task := range tasks {
		k := task.Context(buf[:])
		w.SetContext(b, task.Level, buf[:k])
	}
	w.Forward(params, dv, gru.Greedy, gru.Stream{})
	programs := make([][]int32, n)
	margins := make([][]float64, n) // top-1 minus top-2 log-probability (= logit gap)
	rewards := make([]float64, n)
	var solved [seed.NumLevels]int
	minMargin := math.Inf(1)
	for b := range tasks {
		programs[b] = make([]int32, steps)
		margins[b] = make([]float64, steps)
		for s := 0; s < steps; s++ {
			programs[b][s] = w.Action(b, s)
			margins[b][s] = margin(w, b, s)
			minMargin = math.Min(minMargin, margins[b][s])
		}
		o := seed.Run(tasks[b], programs[b])
		rewards[b] = o.Reward
		if o.Reward >= 1 {
			solved[tasks[b].Level]++
		}
	}
	t.Logf("smallest top-2 logit margin over %d decisions: %.3g (ties allowed below %g)", n*steps, minMargin, tieMargin)

	// The programs must be worth comparing.
	distinct := map[string]bool{}
	nonzero := 0
	for b := range programs {
		distinct[fmt.Sprint(programs[b])] = true
		if rewards[b] != 0 {
			nonzero++
		}
	}
	t.Logf("%d distinct programs, %d nonzero rewards, solved per level %v of %d", len(distinct), nonzero, solved, perLevel)
	require.GreaterOrEqual(t, len(distinct), 10, "greedy programs too uniform to test anything")
	require.GreaterOrEqual(t, nonzero, 10)
	require.NotZero(t, solved[0]+solved[1]+solved[2])

	// PyTorch's.
	start := time.Now()
	cmd := exec.Command(py, script, ckpt, ctxPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s %s: %s", py, script, stderr.String())
	t.Logf("%s ran in %v", script, time.Since(start).Round(time.Millisecond))
	var got torchResult
	require.NoError(t, json.Unmarshal(out, &got), "script output: %s", out)
	require.Len(t, got.Programs, n)

	// PyTorch's programs, scored by seed.Run like simdrl's.
	var torchSolved [seed.NumLevels]int
	ties := 0
	for b := range tasks {
		tp := got.Programs[b]
		require.Len(t, tp, steps, "context %d", b)
		for i, tok := range tp {
			require.Equal(t, seed.TokenName(int(tok)), got.Tokens[b][i], "context %d: the program spelled with the seed's names", b)
		}
		o := seed.Run(tasks[b], tp)
		if o.Reward >= 1 {
			torchSolved[tasks[b].Level]++
		}
		s := 0 // the first step where the programs differ
		for s < steps && programs[b][s] == tp[s] {
			s++
		}
		if s == steps {
			require.Equal(t, math.Float64bits(rewards[b]), math.Float64bits(o.Reward), "context %d", b)
			continue
		}
		// Only a tie may make PyTorch pick another action; after it the
		// programs go separate ways.
		require.Lessf(t, margins[b][s], tieMargin,
			"context %d (level %d, digits %v): simdrl %v, PyTorch %v differ at step %d with a logit margin of %.3g",
			b, tasks[b].Level, tasks[b].Digits, programs[b], tp, s, margins[b][s])
		t.Logf("context %d: tie at step %d (margin %.3g): simdrl %v (reward %v), PyTorch %v (reward %v)",
			b, s, margins[b][s], programs[b], rewards[b], tp, o.Reward)
		ties++
	}
	require.LessOrEqual(t, ties, 2, "too many ties to call the programs equal")
	for s := 0; s < seed.NumLevels; s++ {
		if ties == 0 {
			require.Equal(t, solved[s], torchSolved[s], "solved in level %d", s)
		} else {
			require.InDelta(t, solved[s], torchSolved[s], float64(ties), "solved in level %d", s)
		}
	}
	t.Logf("identical: %d programs, rewards, solved per level %v", n-ties, torchSolved)
}

// margin is the gap between the two largest log-probabilities of episode b
// at step t (the same as the gap between its two largest logits).
func margin(w *gru.Workspace, b, t int) float64 {
	best, second := math.Inf(-1), math.Inf(-1)
	for a := int32(0); a < seed.Vocab; a++ {
		v := float64(w.LogpOf(b, t, a))
		if v > best {
			best, second = v, best
		} else if v > second {
			second = v
		}
	}
	return best - second
}
