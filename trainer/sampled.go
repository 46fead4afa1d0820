package trainer

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/stats"
	"github.com/simdrl/simdrl/task"
)

// SampledResult is a sampled evaluation of one level on one split (or of
// one held-out subset of it): each of Instances instances, the greedy
// evaluation's own, played Samples times by sampling from the policy at
// Temperature, and the unbiased pass@1 and pass@K over them (stats.PassAtK,
// averaged over the instances), the literature's measure of a stochastic
// search beside the greedy solve rate.
type SampledResult struct {
	Level       int     `json:"level"`
	Split       string  `json:"split"`            // "held-out" or "training" (task.Split)
	Subset      string  `json:"subset,omitempty"` // a held-out subset's name (task.Subsetter); empty: the whole level
	Instances   int     `json:"instances"`        // 0: the level has nothing in the split
	Samples     int     `json:"samples"`
	K           int     `json:"k"`
	Temperature float64 `json:"temperature"`
	PassAt1     float64 `json:"pass_at_1"`
	PassAtK     float64 `json:"pass_at_k"`
}

// sampledSolver is an Engine that plays sampled evaluations (cpu.Engine):
// samples episodes of each of ins sampled at temperature, episode s of
// instance i being episode i·samples+s of round of the action stream, and
// correct[i] the number answered correctly.
type sampledSolver interface {
	SampledSolved(ins []task.Instance, samples int, temperature float64, round uint32, correct []int) error
}

// sampledBit moves an evaluation's round to its sampled actions' round:
// above every update number (≤ 2³⁰, training's action rounds) for the
// periodic rounds 1..2³⁰−1, 0 for 2³⁰, and far from them for FinalRound;
// no training update's actions are drawn again.
const sampledBit = 1 << 30

// sampledOptions checks opt's sampled evaluation and returns its k and
// temperature with their defaults; samples 0 is none.
func sampledOptions(opt Options) (samples, k int, temperature float64, err error) {
	samples, k, temperature = opt.EvalSamples, opt.EvalPassK, opt.EvalTemperature
	if k == 0 {
		k = samples
	}
	if temperature == 0 {
		temperature = 1
	}
	switch {
	case samples < 0 || samples > MaxEpisodes:
		return 0, 0, 0, fmt.Errorf("trainer: EvalSamples must be in [0, %d], got %d", MaxEpisodes, samples)
	case samples > 0 && (k < 1 || k > samples):
		return 0, 0, 0, fmt.Errorf("trainer: EvalPassK must be in [1, EvalSamples=%d], got %d", samples, k)
	case !(temperature > 0) || math.IsInf(temperature, 0):
		return 0, 0, 0, fmt.Errorf("trainer: EvalTemperature must be positive and finite, got %v", temperature)
	}
	return samples, k, temperature, nil
}

// sampledEvaluation plays opt's sampled evaluation of every level on split:
// the episodes instances the greedy evaluation of round draws, each
// opt.EvalSamples times; with subsets, each held-out subset's too (a
// task.Subsetter's), after its level. Nil when opt asks for none.
func sampledEvaluation(tr *Trainer, opt Options, episodes int, round uint32, split task.Split, subsets bool) ([]SampledResult, error) {
	samples, k, temperature, err := sampledOptions(opt)
	if err != nil || samples == 0 {
		return nil, err
	}
	ss, ok := tr.e.(sampledSolver)
	if !ok {
		return nil, fmt.Errorf("the %s engine has no sampled evaluation (-eval-samples): evaluate on the CPU", tr.e.Backend())
	}
	t := tr.task
	key := rng.NewKey(tr.cfg.Seed)
	sub, _ := t.(task.Subsetter)
	var out []SampledResult
	for lv := range t.Levels() {
		row := SampledResult{Level: lv, Split: split.String(), Samples: samples, K: k, Temperature: temperature}
		n := episodes
		if task.Items(t, lv, split) == 0 {
			n = 0 // nothing of the level in the split (EvalResult's Episodes 0)
		}
		ins := make([]task.Instance, n)
		for i := range ins {
			ins[i] = t.Draw(key, round, uint32(i), enginekit.EvalPurpose(lv), lv, split)
		}
		correct := make([]int, n)
		if err := ss.SampledSolved(ins, samples, temperature, round^sampledBit, correct); err != nil {
			return nil, err
		}
		out = append(out, passRates(row, correct, nil))
		if subsets && sub != nil && n > 0 {
			for i, name := range sub.SubsetNames() {
				in := make([]bool, n)
				for j := range ins {
					in[j] = sub.Subsets(&ins[j])&(1<<i) != 0
				}
				s := row
				s.Subset = name
				out = append(out, passRates(s, correct, in))
			}
		}
	}
	return out, nil
}

// passRates fills row's instances and mean pass@1 and pass@k from each
// instance's correct samples, over the instances in marks (nil: all).
func passRates(row SampledResult, correct []int, in []bool) SampledResult {
	var p1, pk float64
	for i, c := range correct {
		if in != nil && !in[i] {
			continue
		}
		row.Instances++
		p1 += stats.PassAtK(row.Samples, c, 1)
		pk += stats.PassAtK(row.Samples, c, row.K)
	}
	if row.Instances > 0 {
		row.PassAt1, row.PassAtK = p1/float64(row.Instances), pk/float64(row.Instances)
	}
	return row
}

// sampledPoint is the periodic sampled evaluation after update u, on the
// held-out instances of its greedy one: pass@1 and pass@k per level (nil
// without one). It runs before the greedy evaluations, whose results move
// the curriculum: an interrupt here leaves the evaluation pending as they do.
func (l *loop) sampledPoint(u int) (passAt1, passAtK []float64, err error) {
	rs, err := sampledEvaluation(l.tr, l.opt, l.tr.cfg.EvalBatch, uint32(u), task.HeldOut, false)
	passAt1, passAtK = sampledRatesOf(rs)
	return passAt1, passAtK, err
}

// sampledRatesOf are rs's pass@1 and pass@k per level, NaN (null in the
// metrics, no TensorBoard scalar) for a level with no instance: never a 0
// that was never measured.
func sampledRatesOf(rs []SampledResult) (passAt1, passAtK []float64) {
	for _, r := range rs {
		p1, pk := r.PassAt1, r.PassAtK
		if r.Instances == 0 {
			p1, pk = math.NaN(), math.NaN()
		}
		passAt1, passAtK = append(passAt1, p1), append(passAtK, pk)
	}
	return passAt1, passAtK
}

// playedSampled are the rows of rs with instances: the report leaves a
// level or subset not played out rather than writing its 0s.
func playedSampled(rs []SampledResult) []SampledResult {
	var out []SampledResult
	for _, r := range rs {
		if r.Instances > 0 {
			out = append(out, r)
		}
	}
	return out
}

// finalSampled is the final sampled evaluation, on the final greedy
// evaluation's instances: held out with its subsets, and on training
// instances for a task that holds some out.
func finalSampled(tr *Trainer, rep *Report, r *Reporter, opt Options) error {
	rs, err := sampledEvaluation(tr, opt, tr.cfg.FinalEpisodes, enginekit.FinalRound, task.HeldOut, true)
	if err != nil || rs == nil {
		return err
	}
	if tr.task.HoldsOut() {
		train, err := sampledEvaluation(tr, opt, tr.cfg.FinalEpisodes, enginekit.FinalRound, task.Training, false)
		if err != nil {
			return err
		}
		rs = append(rs, train...)
	}
	rep.Sampled = playedSampled(rs)
	if r.SampledEvaluated != nil {
		r.SampledEvaluated(rs)
	}
	return nil
}

// printSampled writes the final sampled evaluation: one line per split
// with pass@1 and pass@k per level, then the held-out subsets'.
func printSampled(out io.Writer, rs []SampledResult) {
	if len(rs) == 0 {
		return
	}
	r0 := rs[0]
	fmt.Fprintf(out, "Sampled evaluation (%d samples an instance at temperature %g, unbiased estimates):\n", r0.Samples, r0.Temperature)
	for _, split := range []string{task.HeldOut.String(), task.Training.String()} {
		var levels, subsets []string
		for _, r := range rs {
			if r.Split != split {
				continue
			}
			figure := fmt.Sprintf("%.3f / %.3f", r.PassAt1, r.PassAtK)
			if r.Instances == 0 {
				figure = "—"
			}
			if r.Subset == "" {
				levels = append(levels, fmt.Sprintf("T%d=%s", r.Level, figure))
			} else {
				subsets = append(subsets, fmt.Sprintf("T%d %s=%s of %d", r.Level, r.Subset, figure, r.Instances))
			}
		}
		if levels == nil {
			continue
		}
		fmt.Fprintf(out, "  %s pass@1 / pass@%d → %s\n", split, r0.K, strings.Join(levels, ", "))
		if subsets != nil {
			fmt.Fprintf(out, "  %s subsets → %s\n", split, strings.Join(subsets, ", "))
		}
	}
}

// sampledLine is a periodic evaluation's sampled figures, "" without.
func sampledLine(p EvalPoint, k int) string {
	if p.PassAt1 == nil {
		return ""
	}
	parts := make([]string, len(p.PassAt1))
	for i := range p.PassAt1 {
		parts[i] = fmt.Sprintf("T%d=%.3f/%.3f", i, p.PassAt1[i], p.PassAtK[i])
		if math.IsNaN(p.PassAt1[i]) {
			parts[i] = fmt.Sprintf("T%d=—", i)
		}
	}
	return fmt.Sprintf(" | sampled pass@1/pass@%d %s", k, strings.Join(parts, " "))
}
