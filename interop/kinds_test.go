package interop_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	_ "github.com/simdrl/simdrl/tasks/builtin"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// modelKind is a kind of model simdrl trains beyond the seed's: a reading
// model (-context read), an observing one (calc's branching levels return
// what their tools found) and the tape task's.
type modelKind struct {
	name, task, spec, context string
	observes                  bool
	wrong                     []wrongPort // mistakes of a port the comparison must catch (wrong_test.go)
}

// answerDrop lowers the answer's logit in the kinds' checkpoints.
const answerDrop = 2

var modelKinds = []modelKind{
	{"read", "calc", "levels=a*b, a*b+c*d", trainer.ContextRead, false, nil},
	{"observe", "calc", "levels=abs(a-b), max(a,b)+c", "", true, nil},
	{"tape", "tape", "partial_credit=0.3", "", true, nil}, // its tools return what they found too
	// dial_test.go's task: fields and a vector (task.Fielded), read or averaged.
	{"fields", dialName, "", "", false, fieldsWrong},
	{"fields-read", dialName, "", trainer.ContextRead, false, nil},
	// A legal-action mask (task.LegalGame) on an observing task.
	{"mask", "countdown3", "budget=16", "", true, maskWrong},
}

// trainKind trains a short run of k and saves its checkpoint in dir.
func trainKind(t *testing.T, k modelKind, dir string) string {
	c := trainer.DefaultRecipe()
	c.Task, c.TaskSpec = k.task, k.spec
	c, err := trainer.WithTask(c)
	require.NoError(t, err)
	if k.context != "" {
		c.Context = k.context
	}
	c.Hidden, c.Updates, c.Batch, c.Chunk, c.EvalEvery, c.FinalEpisodes, c.Explain, c.Threads = 24, 2, 24, 8, 0, 8, 0, 2
	e, err := cpu.New(c)
	require.NoError(t, err)
	defer e.Close()
	tr, err := trainer.New(c, e.Task(), e)
	require.NoError(t, err)
	_, err = trainer.Drive(tr, io.Discard, trainer.Options{Quiet: true})
	require.NoError(t, err)
	f, err := tr.Checkpoint()
	require.NoError(t, err)
	// pi.weight scaled up as model() does and the answer made less likely:
	// greedy programs that vary with the instance and run for a few steps
	// (a short run's answer at once, alike for most instances).
	answer := e.Task().Answer()
	for i := range f.Tensors {
		switch d := f.Tensors[i].Data; f.Tensors[i].Name {
		case "pi.weight":
			for j := range d {
				d[j] *= piScale
			}
		case "pi.bias":
			if answer >= 0 {
				d[answer] -= answerDrop
			}
		}
	}
	path := filepath.Join(dir, k.name+".safetensors")
	require.NoError(t, checkpoint.WriteFile(path, f))
	return path
}

// torchEpisode is one episode of the script's general form of contexts:
// what the task's game gave the policy before each step, one entry a step.
type torchEpisode struct {
	Stage        int         `json:"stage"`
	Context      []int32     `json:"context"`
	Observations []int32     `json:"observations,omitempty"`
	Fields       [][]int32   `json:"fields,omitempty"`
	Vector       [][]float32 `json:"vector,omitempty"`
	Legal        [][]int32   `json:"legal,omitempty"` // each step's legal tokens
}

// played is simdrl's greedy episode: its tokens up to its end, what the
// policy was given before each step, and each decision's margin.
type played struct {
	tokens, observations []int32
	fields               [][]int32
	vector               [][]float32
	legal                [][]int32
	margins              []float64
}

// playGreedy plays in greedily on a policy session with the task's own Env:
// each step's legal-action mask (task.Masker) through Session.Legal, its
// fields and vector (task.FieldEnv) through ActFields, else its
// observation through Act.
func playGreedy(t *testing.T, p *policy.Policy, in *task.Instance) played {
	tk := p.Task()
	env := task.NewEnv(tk, 1)
	obs := env.Reset(0, in)
	masker, masked := env.(task.Masker)
	spec := task.Fields(tk)
	fenv, fielded := env.(task.FieldEnv)
	fielded = fielded && task.IsFielded(tk)
	fields, vector, legal := make([]int32, len(spec.Sizes)), make([]float32, spec.Vector), make([]bool, p.Vocab())
	s := p.Session()
	defer s.Release()
	require.NoError(t, s.Start(in, policy.Pick{}))
	out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
	probs := make([]float32, p.Vocab())
	var ep played
	for !out.Done[0] && s.Played() < p.Steps() {
		if masked {
			masker.Legal(0, legal)
			require.NoError(t, s.Legal(legal))
			var toks []int32
			for tok, ok := range legal {
				if ok {
					toks = append(toks, int32(tok))
				}
			}
			ep.legal = append(ep.legal, toks)
		}
		var a int32
		var err error
		if fielded {
			fenv.WriteFields(0, fields, vector)
			a, err = s.ActFields(fields, vector)
			ep.fields, ep.vector = append(ep.fields, slices.Clone(fields)), append(ep.vector, slices.Clone(vector))
		} else {
			a, err = s.Act(obs)
			ep.observations = append(ep.observations, obs)
		}
		require.NoError(t, err)
		ep.tokens = append(ep.tokens, a)
		_, err = s.Probs(probs)
		require.NoError(t, err)
		ep.margins = append(ep.margins, logGap(probs))
		env.Step([]int32{a}, out)
		obs = out.Obs[0]
	}
	return ep
}

// logGap is the gap between the two largest log-probabilities.
func logGap(probs []float32) float64 {
	s := slices.Clone(probs)
	slices.Sort(s)
	top, second := float64(s[len(s)-1]), float64(s[len(s)-2])
	if second <= 0 {
		return math.Inf(1)
	}
	return math.Log(top) - math.Log(second)
}

// TestTorchInteropKinds: PyTorch reproduces the greedy programs of a
// reading, an observing, a tape, a fielded (averaged and read) and a masked
// checkpoint, trained by simdrl, fed what the task's Env gave simdrl's
// policy (observations, fields and vector, legal tokens), and spells them
// with the task's token names.
func TestTorchInteropKinds(t *testing.T) {
	py := needTorch(t)
	for _, k := range modelKinds {
		t.Run(k.name, func(t *testing.T) {
			dir := t.TempDir()
			path := trainKind(t, k, dir)
			p, err := policy.Load(path)
			require.NoError(t, err)
			tk := p.Task()
			require.Equal(t, k.observes, p.Observations() > 0, "the kind observes as its task does")
			spec, eps := kindEpisodes(t, p)
			got := runTorch(t, py, path, spec, dir)
			require.Len(t, got.Tokens, len(eps))
			ties, err := agree(eps, got)
			require.NoError(t, err)
			for b, ep := range eps {
				for i, tok := range got.Programs[b][:len(ep.tokens)] {
					require.Equal(t, tk.TokenName(tok), got.Tokens[b][i], "episode %d", b)
				}
			}
			t.Logf("%s: %d episodes, %d ties; first: %v", k.name, len(eps), ties, got.Tokens[0])
			checkWrong(t, py, path, spec, eps, k.wrong)
		})
	}
}

// kindEpisodes plays perLevel held-out instances of each level of p's
// task greedily (playGreedy) and returns the script's general form of them
// (what the model takes: observations, or fields and vector; the legal
// tokens of a masked task) with simdrl's episodes.
func kindEpisodes(t *testing.T, p *policy.Policy) (map[string]any, []played) {
	tk := p.Task()
	spec := map[string]any{"steps": p.Steps(), "end": task.ContextEnd(tk), "not_actions": tk.NotActions()}
	var names []string
	for tok := range p.Vocab() {
		names = append(names, tk.TokenName(int32(tok)))
	}
	spec["tokens"] = names
	var eps []played
	var episodes []torchEpisode
	for level := range tk.Levels() {
		if task.Items(tk, level, task.HeldOut) == 0 {
			continue
		}
		for i := range perLevel {
			in := tk.Draw(rng.NewKey(taskSeed), 0, uint32(i), rng.PurposeEval, level, task.HeldOut)
			ep := playGreedy(t, p, &in)
			e := torchEpisode{Stage: task.Stage(tk, level), Context: slices.Clone(in.Context[:in.NContext]),
				Fields: ep.fields, Vector: ep.vector, Legal: ep.legal}
			if p.Observations() > 0 {
				e.Observations = ep.observations
			}
			eps, episodes = append(eps, ep), append(episodes, e)
		}
	}
	spec["episodes"] = episodes
	distinct := map[string]bool{}
	for _, ep := range eps {
		distinct[fmt.Sprint(ep.tokens)] = true
	}
	require.GreaterOrEqual(t, len(distinct), 5, "greedy programs too uniform to test anything")
	t.Logf("%d episodes, %d distinct programs", len(eps), len(distinct))
	return spec, eps
}

// runTorch runs the script on the checkpoint at path and the episodes of
// spec (written into dir), and returns its programs.
func runTorch(t *testing.T, py, path string, spec map[string]any, dir string) torchResult {
	raw, err := json.Marshal(spec)
	require.NoError(t, err)
	ctxPath := filepath.Join(dir, "episodes.json")
	require.NoError(t, os.WriteFile(ctxPath, raw, 0o644))
	cmd := exec.Command(py, script, path, ctxPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s %s: %s", py, script, stderr.String())
	var got torchResult
	require.NoError(t, json.Unmarshal(out, &got), "script output: %s", out)
	require.Len(t, got.Programs, len(spec["episodes"].([]torchEpisode)))
	return got
}

// agree says whether PyTorch's programs are simdrl's: equal up to simdrl's
// end (an episode given per-step inputs plays as many steps; one without
// plays the whole budget), but where simdrl's decision was a tie (a
// log-probability margin under tieMargin) after which they may part, at
// most twice. It returns the ties.
func agree(eps []played, got torchResult) (int, error) {
	if len(got.Programs) != len(eps) {
		return 0, fmt.Errorf("%d programs for %d episodes", len(got.Programs), len(eps))
	}
	ties := 0
	for b, ep := range eps {
		n, tp := len(ep.tokens), got.Programs[b]
		if len(tp) < n {
			return ties, fmt.Errorf("episode %d: PyTorch played %d steps, simdrl %d", b, len(tp), n)
		}
		tp = tp[:n]
		s := 0 // the first step where the programs differ
		for s < n && ep.tokens[s] == tp[s] {
			s++
		}
		if s == n {
			continue
		}
		if ep.margins[s] >= tieMargin {
			return ties, fmt.Errorf("episode %d: simdrl %v, PyTorch %v differ at step %d with a log-probability margin of %.3g",
				b, ep.tokens, tp, s, ep.margins[s])
		}
		ties++
	}
	if ties > 2 {
		return ties, fmt.Errorf("%d ties: too many to call the programs equal", ties)
	}
	return ties, nil
}
