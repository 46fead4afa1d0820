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
}

// answerDrop lowers the answer's logit in the kinds' checkpoints.
const answerDrop = 2

var modelKinds = []modelKind{
	{"read", "calc", "levels=a*b, a*b+c*d", trainer.ContextRead, false},
	{"observe", "calc", "levels=abs(a-b), max(a,b)+c", "", true},
	{"tape", "tape", "partial_credit=0.3", "", true}, // its tools return what they found too
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

// torchEpisode is one episode of the script's general form of contexts.
type torchEpisode struct {
	Stage        int     `json:"stage"`
	Context      []int32 `json:"context"`
	Observations []int32 `json:"observations,omitempty"`
}

// played is simdrl's greedy episode: its tokens up to its end, the
// observations before each step, and each decision's margin.
type played struct {
	tokens, observations []int32
	margins              []float64
}

// playGreedy plays in greedily on a policy session with the task's own Env.
func playGreedy(t *testing.T, p *policy.Policy, in *task.Instance) played {
	env := task.NewEnv(p.Task(), 1)
	obs := env.Reset(0, in)
	s := p.Session()
	defer s.Release()
	require.NoError(t, s.Start(in, policy.Pick{}))
	out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
	probs := make([]float32, p.Vocab())
	var ep played
	for !out.Done[0] && s.Played() < p.Steps() {
		a, err := s.Act(obs)
		require.NoError(t, err)
		ep.tokens, ep.observations = append(ep.tokens, a), append(ep.observations, obs)
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
// reading, an observing and a tape checkpoint, trained by simdrl, fed the
// observations the task's Env returned (for a model that observes), and
// spells them with the task's token names.
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

			var eps []played
			spec := map[string]any{"steps": p.Steps(), "end": task.ContextEnd(tk), "not_actions": tk.NotActions()}
			var names []string
			for tok := range p.Vocab() {
				names = append(names, tk.TokenName(int32(tok)))
			}
			spec["tokens"] = names
			var episodes []torchEpisode
			for level := range tk.Levels() {
				if task.Items(tk, level, task.HeldOut) == 0 {
					continue
				}
				for i := range perLevel {
					in := tk.Draw(rng.NewKey(taskSeed), 0, uint32(i), rng.PurposeEval, level, task.HeldOut)
					ep := playGreedy(t, p, &in)
					e := torchEpisode{Stage: task.Stage(tk, level), Context: slices.Clone(in.Context[:in.NContext])}
					if k.observes {
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
			require.Len(t, got.Programs, len(eps))
			require.Len(t, got.Tokens, len(eps))

			ties := 0
			for b, ep := range eps {
				n := len(ep.tokens)
				tp := got.Programs[b]
				require.GreaterOrEqual(t, len(tp), n, "episode %d", b)
				if k.observes {
					require.Len(t, tp, n, "an observing episode plays one step per observation")
				}
				s := 0 // the first step where the programs differ
				for s < n && ep.tokens[s] == tp[s] {
					s++
				}
				if s == n {
					for i, tok := range ep.tokens {
						require.Equal(t, tk.TokenName(tok), got.Tokens[b][i], "episode %d", b)
					}
					continue
				}
				require.Lessf(t, ep.margins[s], tieMargin, "episode %d: simdrl %v, PyTorch %v differ at step %d with a log-probability margin of %.3g",
					b, ep.tokens, tp[:n], s, ep.margins[s])
				ties++
			}
			require.LessOrEqual(t, ties, 2, "too many ties to call the programs equal")
			t.Logf("%s: %d episodes (%d distinct programs), %d ties; first: %v", k.name, len(eps), len(distinct), ties, got.Tokens[0])
		})
	}
}
