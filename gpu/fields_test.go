//go:build cgo

package gpu

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/gpu/internal/abi"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// fieldWalk is the walk (hoststep_test.go) seen only through observation
// fields and a float vector (task.Fielded): its context is empty, and the
// target and position reach the policy as fields (target 0..3, position
// +3 in 0..6) and as numbers (position/3, target/3, steps/6), as many of
// each as spec declares. With const0 > 0 field 0 is always const0−1, and
// shift is added to vector entry 0 (TestGPUFieldsReachTheLogits); at step
// badAt (> 0) its field 0 is 99, outside its field.
type fieldWalk struct {
	spec   task.FieldSpec
	const0 int32
	shift  float32
	badAt  int
}

func (fieldWalk) Name() string        { return "fieldwalk" }
func (fieldWalk) Vocab() int          { return 4 }
func (fieldWalk) ContextEnd() int32   { return 3 }
func (fieldWalk) NotActions() []int32 { return []int32{3} }
func (fieldWalk) Answer() int32       { return walkSay }
func (fieldWalk) HoldsOut() bool      { return false }
func (fieldWalk) TokenName(tok int32) string {
	return [...]string{"-", "+", "=", "CTX"}[tok]
}
func (fieldWalk) Levels() []task.Level {
	return []task.Level{{Name: "one-two", Budget: 4, Shortest: 2}, {Name: "one-three", Budget: 6, Shortest: 4}}
}
func (f fieldWalk) Fields() task.FieldSpec { return f.spec }
func (fieldWalk) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, _ task.Split) task.Instance {
	target := 1 + int64(rng.Below(key.Block(round, episode, 0, purpose)[0], uint32(2+level)))
	in := task.Instance{Level: int32(level), Budget: int32(fieldWalk{}.Levels()[level].Budget)}
	in.Data[0] = target
	return in
}
func (f fieldWalk) NewGame() task.Game { return &fieldWalkGame{walk: f} }

type fieldWalkGame struct {
	walkGame
	walk fieldWalk
}

func (g *fieldWalkGame) Reset(in *task.Instance) int32 {
	g.walkGame.Reset(in)
	return task.NoObservation // the fields say it all
}

func (g *fieldWalkGame) Step(tok int32) (int32, float64, bool) {
	_, r, done := g.walkGame.Step(tok)
	return task.NoObservation, r, done
}

func (g *fieldWalkGame) WriteFields(fields []int32, vector []float32) {
	fs := [2]int32{int32(g.target), int32(min(max(g.pos+3, 0), 6))}
	copy(fields, fs[:])
	if len(fields) > 0 && g.walk.const0 > 0 {
		fields[0] = g.walk.const0 - 1
	}
	if len(fields) > 0 && g.walk.badAt > 0 && g.steps == g.walk.badAt {
		fields[0] = 99
	}
	vs := [3]float32{float32(g.pos)/3 + g.walk.shift, float32(g.target) / 3, float32(g.steps) / 6}
	copy(vector, vs[:])
}

// fieldSpecs are the fielded layouts the tests run: fields and a vector,
// fields alone, a vector alone, and one field (an observation model,
// gru.Config.Observations, fed from the field).
var fieldSpecs = []task.FieldSpec{{Sizes: []int{4, 7}, Vector: 3}, {Sizes: []int{4, 7}}, {Vector: 3}, {Sizes: []int{4}}}

func fieldConfig() trainer.Config {
	cfg := walkConfig("")
	cfg.Task = "fieldwalk"
	return cfg
}

// TestGPUFieldsMatchCPU: a task with observation fields and a float vector
// trains on the GPU (its fields written on the host after Reset and every
// Step, summed into the input gates on the device) and matches the CPU:
// before training both play the same greedy programs; six updates match as
// TestGPUHostSteppedTrainingMatchesCPU holds them (the first update's
// rewards exactly, its loss and norm to 1e-4); then the greedy evaluations,
// the greedy programs but a near-tie and the parameters (field_emb, vec.*
// and W_ih among them) within a few Adam steps. Fields alone, a vector
// alone and one field (an observation model) match their first updates too.
func TestGPUFieldsMatchCPU(t *testing.T) {
	openGPU(t).Close()
	for i, spec := range fieldSpecs {
		cfg := fieldConfig()
		tk := fieldWalk{spec: spec}
		host, g := walkRuns(t, cfg, tk)
		label := fmt.Sprintf("fields %v vector %d", spec.Sizes, spec.Vector)
		require.Equal(t, scoreHost, g.e.scoreKind)
		if len(spec.Sizes) == 1 && spec.Vector == 0 {
			require.False(t, g.e.fielded, label)
			require.Equal(t, spec.Sizes[0], g.e.O, "%s: one field is the observation", label)
		} else {
			require.True(t, g.e.fielded, label)
			require.Equal(t, len(spec.Sizes), g.e.nf, label)
			require.Equal(t, spec.Vector, g.e.F, label)
		}
		if i > 0 {
			updatesMatch(t, label, host, g, 1, 2, true)
			continue
		}
		greedySame := func(when string, round uint32) {
			for lv := range tk.Levels() {
				ins, want, got := greedyOnBoth(t, host, g, lv, round, 24)
				differ := 0
				for b := range ins {
					w, gp := want[b*cfg.Steps:(b+1)*cfg.Steps], got[b*cfg.Steps:(b+1)*cfg.Steps]
					if !slices.Equal(w, gp) {
						differ++ // a near-tie that rounding broke the other way
					}
				}
				t.Logf("%s level %d %s: %d of %d greedy programs differ", label, lv, when, differ, len(ins))
				require.LessOrEqual(t, differ, 1, "%s level %d: greedy programs %s", label, lv, when)
			}
		}
		greedySame("before training", 2)
		updatesMatch(t, label, host, g, 1, 6, true)
		want, err := host.EvaluateAll(100, 3, task.HeldOut)
		require.NoError(t, err)
		got, err := g.EvaluateAll(100, 3, task.HeldOut)
		require.NoError(t, err)
		for lv := range want {
			t.Logf("%s level %d: greedy solve rate CPU %.3f GPU %.3f, reward %.4f %.4f", label, lv, want[lv].SolveRate, got[lv].SolveRate, want[lv].MeanReward, got[lv].MeanReward)
			require.InDelta(t, want[lv].SolveRate, got[lv].SolveRate, 0.02, "level %d solve rate", lv)
			require.InDelta(t, want[lv].MeanReward, got[lv].MeanReward, 0.03, "level %d reward", lv)
		}
		greedySame("after 6 updates", 4)
		pc := host.Params()
		pg, err := g.Params()
		require.NoError(t, err)
		l := g.e.l
		for _, tensor := range []struct {
			name   string
			lo, hi int
		}{{"field_emb", l.FieldEmb.Offset, l.FieldEmb.Offset + l.FieldEmb.Size}, {"vec.weight", l.VecW.Offset, l.VecW.Offset + l.VecW.Size},
			{"vec.bias", l.VecB.Offset, l.VecB.Offset + l.VecB.Size}, {"all", 0, len(pc)}} {
			worst := 0.0
			for i := tensor.lo; i < tensor.hi; i++ {
				worst = max(worst, float64(abs32(pc[i]-pg[i])))
			}
			t.Logf("%s: %s after 6 updates differs by at most %.2g", label, tensor.name, worst)
			require.Less(t, worst, 5*cfg.LR, "%s: %s stays within a few Adam steps of the CPU's", label, tensor.name)
		}
		initial := make([]float32, l.Size)
		l.Init(initial, cfg.Seed)
		for _, tensor := range []gru.Tensor{l.FieldEmb, l.VecW, l.VecB} {
			at := tensor.Offset
			require.NotEqual(t, initial[at:at+tensor.Size], pg[at:at+tensor.Size], "%s: %s was trained", label, tensor.Name)
		}
	}
}

// TestGPUFieldsReachTheLogits: the first step's log-probabilities of a
// training rollout change when one field value changes (field 0 constant
// 0 against constant 2), and when one vector entry does, and stay bit for
// bit when nothing does.
func TestGPUFieldsReachTheLogits(t *testing.T) {
	openGPU(t).Close()
	cfg := fieldConfig()
	spec := fieldSpecs[0]
	firstLogp := func(tk fieldWalk) []float32 {
		g, err := newEngineWithTask(cfg, tk)
		require.NoError(t, err)
		defer g.Close()
		_, err = g.Update(trainer.Plan{Update: 1, Level: 0, Entropy: cfg.EntropyCoef})
		require.NoError(t, err)
		logp := make([]float32, cfg.Batch*tk.Vocab())
		require.NoError(t, g.d.do(func() error { return download(logp, g.e.logp) }))
		return logp
	}
	base := firstLogp(fieldWalk{spec: spec, const0: 1})
	require.Equal(t, base, firstLogp(fieldWalk{spec: spec, const0: 1}), "the same fields, the same logits")
	require.NotEqual(t, base, firstLogp(fieldWalk{spec: spec, const0: 3}), "field 0 changed: the logits change")
	require.NotEqual(t, base, firstLogp(fieldWalk{spec: spec, const0: 1, shift: 0.5}), "vector entry 0 changed: the logits change")
}

// TestGPURefusesABadField: a field value outside its field, written by the
// task at a step, is the task's error in one line from a training update
// and from an evaluation (task.CheckFields on the host), never a read
// outside the device's table or a panic.
func TestGPURefusesABadField(t *testing.T) {
	openGPU(t).Close()
	cfg := fieldConfig()
	e, err := NewWithTask(cfg, fieldWalk{spec: fieldSpecs[0], badAt: 1})
	require.NoError(t, err)
	defer e.Close()
	_, err = e.Update(trainer.Plan{Update: 1, Level: 0, Entropy: cfg.EntropyCoef})
	require.ErrorContains(t, err, "field 0 is 99, outside 0..3")
	require.NotContains(t, err.Error(), "\n")
	_, err = e.EvaluateAll(16, 1, task.HeldOut)
	require.ErrorContains(t, err, "field 0 is 99, outside 0..3")
}

// fieldedCalc is a calculator task (task.Interpreted, played natively by
// the kernels) that declares fields: the native rollouts feed none.
type fieldedCalc struct{ task.Interpreted }

func (fieldedCalc) Fields() task.FieldSpec { return task.FieldSpec{Sizes: []int{3, 4}} }

// TestGPUFieldsRefusals: what does not run with fields is refused in one
// line before the device is opened (no GPU needed): a fielded task the
// kernels would play natively, and on the host-stepped path PPO and
// replayed programs, which replay stored programs teacher-forced.
func TestGPUFieldsRefusals(t *testing.T) {
	cfg := calcConfig(t, "a+b", -1)
	calc, err := cfg.OpenTask()
	require.NoError(t, err)
	_, err = buildEngine(cfg, fieldedCalc{calc.(task.Interpreted)}, func(task.Task) error { return nil }, "calc")
	require.ErrorContains(t, err, "declares observation fields (task.Fielded), which the CUDA kernels feed only to a task whose game the host steps")
	require.NotContains(t, err.Error(), "\n")
	for field, tweak := range map[string]func(*trainer.Config){
		"replay":    func(c *trainer.Config) { c.Replay = 10 },
		"estimator": func(c *trainer.Config) { c.Estimator, c.PPOEpochs, c.PPOMinibatches = trainer.EstimatorPPO, 2, 2 },
	} {
		cfg := fieldConfig()
		tweak(&cfg)
		_, err := buildEngine(cfg, fieldWalk{spec: fieldSpecs[0]}, func(task.Task) error { return nil }, "fieldwalk")
		var fe *trainer.FieldError
		require.ErrorAs(t, err, &fe, field)
		require.Equal(t, field, fe.Field)
		require.Contains(t, err.Error(), "stepped on the host")
		require.NotContains(t, err.Error(), "\n")
	}
}

// TestFieldsFollowABI: a fielded engine's launches (the derived tables,
// a step's input gates, the backward's reductions) pack their arguments as
// the ABI table lists them, and each kernel of the fields module is
// launched, with no GPU (TestEngineFollowsABI's way).
func TestFieldsFollowABI(t *testing.T) {
	for _, spec := range fieldSpecs[:3] {
		cfg := fieldConfig()
		tk := fieldWalk{spec: spec}
		l, err := enginekit.NewLayout(cfg.Hidden, tk)
		require.NoError(t, err)
		d := &Device{SMs: 132, SmemOptin: 227 * 1024}
		e := &engine{d: d, cfg: cfg, task: tk, l: l, V: l.Vocab, H: l.Hidden, S: l.Levels, T: cfg.Steps, B: cfg.Batch, maxN: cfg.Batch, nsq: 1,
			NV: l.InputRows(), tokBlock: tokenBlock(l.InputRows()), fielded: l.Fielded(), nf: len(l.Fields), FR: l.FieldRows(), F: l.Vector}
		e.bwd, err = planTiles(e.B, e.H, e.V, e.O, d.SMs, d.SmemOptin, true)
		require.NoError(t, err)
		e.slabCaps()
		launched := map[string]int{}
		e.onLaunch = func(name string, a *args) error {
			launched[name]++
			require.NoError(t, a.follows(name))
			return nil
		}
		require.NoError(t, e.derive())
		_, _, _, err = e.fieldGates(2, e.B, true, e.tokens)
		require.NoError(t, err)
		e.last.n, e.last.steps = e.B, e.T
		require.NoError(t, e.gradients())
		want := map[string]int{"simdrl_derive_fields": 1, "simdrl_field_gates": 1, "simdrl_field_grads": 1}
		if e.FR > 0 {
			want["simdrl_field_partial"] = 1
		}
		if e.F > 0 {
			want["simdrl_vec_grad"] = 1
		}
		for _, k := range abi.Kernels {
			if k.Module == "fields" {
				require.Equalf(t, want[k.Entries[0]], launched[k.Entries[0]], "fields %v vector %d: launches of %s", spec.Sizes, spec.Vector, k.Entries[0])
			}
		}
	}
}

// TestGPUCountdownFieldsMatchCPU: the built-in Countdown with its pool as
// fields and a vector (observe=fields) or its vector alone
// (observe=vector), with its legal-action mask, trains on the GPU as on
// the CPU: the first update's rewards exactly, three updates' losses and
// gradient norms as updatesMatch holds them. So does it under the
// no-revisit rule (revisit=off: masks that change with the episode's
// history, episodes that end when their search is over), fielded or not.
func TestGPUCountdownFieldsMatchCPU(t *testing.T) {
	openGPU(t).Close()
	for _, spec := range []string{"observe=fields", "observe=vector", "observe=vector; revisit=off", "revisit=off"} {
		cfg := trainer.DefaultRecipe()
		cfg.Task, cfg.TaskSpec = "countdown3", spec
		cfg, err := trainer.WithTask(cfg)
		require.NoError(t, err)
		cfg.Batch, cfg.Hidden = 32, 24
		cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Threads = 0, 0, 0, 2
		host, err := newHostRun(cfg)
		require.NoError(t, err)
		t.Cleanup(host.Close)
		g, err := newGPURun(cfg)
		require.NoError(t, err)
		t.Cleanup(g.Close)
		require.True(t, g.e.masks, spec)
		require.Equal(t, strings.Contains(spec, "observe"), g.e.fielded, spec)
		updatesMatch(t, "countdown3 "+spec, host, g, 1, 3, true)
	}
}
