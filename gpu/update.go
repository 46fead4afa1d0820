//go:build cgo

package gpu

// One training update: the replayed episodes, the batch's rollout, its
// gradient, the Adam step, its statistics and the batch's record.

import (
	"fmt"

	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// update runs training update p.Update (1-based) and returns its statistics. An
// interrupt is checked before the draw, before each part of the replayed
// episodes (p.Replay), between host-drawn parts, before the rollout launch,
// before the backward launches and, once finish has waited for those
// kernels, before the Adam step: up to there only scratch buffers are
// written, so an interrupted update changes nothing. A kernel already
// launched runs to its end.
func (e *engine) update(p trainer.Plan) (trainer.UpdateStats, error) {
	if e.cfg.Estimator == trainer.EstimatorPPO {
		return e.updatePPO(p) // ppo.go
	}
	u, level, ec := p.Update, p.Level, p.Entropy
	st := trainer.UpdateStats{Update: u, Level: level}
	// The rollout may stop once every episode has ended where the loss
	// weights no step after an end (a record's programs then hold 0 after
	// the last step run, as a host-stepped rollout's; the CPU's retired
	// rows are not played either).
	spec := rolloutSpec{n: e.B, mode: modeSample, train: true, level: level, purpose: rng.PurposeTask, round: uint32(u),
		played: p.Played, cdf: p.CDF, entropy: ec, untilDone: hostStops(e.cfg)}
	if p.Record != nil && len(p.Record) != e.B {
		return st, fmt.Errorf("gpu: a record of %d episodes for a batch of %d", len(p.Record), e.B)
	}
	if e.interrupted("update") {
		return st, trainer.ErrInterrupted
	}
	// The replayed episodes first: their rollouts and gradients use the
	// buffers the batch's then overwrite, and leave their gradient in
	// gradReplay.
	replay := 0.0
	if len(p.Replay) > 0 {
		var err error
		if replay, err = e.replay(p.Replay, p.ReplayCoef); err != nil {
			return st, err
		}
	}
	draw, err := e.trainingDraw(p)
	if err != nil {
		return st, err
	}
	if draw != nil {
		if err := e.drawWith(e.B, draw); err != nil {
			return st, err
		}
		spec.givenTasks = true
	}
	if e.interrupted("rollout") {
		return st, trainer.ErrInterrupted
	}
	nb, err := e.rollout(spec)
	if err == nil && groupEstimator(estimatorCode(e.cfg)) && e.games == nil { // hostRollout wrote the loss weights
		var ne int
		ne, err = e.estimate(nb, ec)
		nb += ne
	}
	if err == nil && e.interrupted("backward") {
		err = trainer.ErrInterrupted
	}
	if err == nil {
		err = e.gradients()
	}
	if err == nil && len(p.Replay) > 0 {
		err = e.add(e.gradReplay, e.grad) // the replayed rows' gradient after the sampled rows'
	}
	if err == nil {
		err = e.finishWith(nb, true, ec, p.ReplayCoef*replay) // waits for the kernels (download)
	}
	if err == nil && e.interrupted("adam") {
		err = trainer.ErrInterrupted // the last point before anything is applied
	}
	if err == nil {
		err = e.adam()
	}
	if err == nil {
		err = e.sync()
	}
	if err != nil {
		return st, err
	}
	if st, err = e.readStats(u, ec, p.ReplayCoef, replay, st); err != nil {
		return st, err
	}
	if p.Record != nil {
		if err := e.record(p.Record, !spec.givenTasks); err != nil {
			return st, err
		}
	}
	return st, nil
}

// readStats reads the update's statistics from fin, with the replayed
// episodes' term (weighted by rc in the total), and checks them as
// cpu.Engine.Update does (enginekit.CheckLoss, enginekit.CheckGradNorm).
func (e *engine) readStats(u int, ec, rc, replay float64, st trainer.UpdateStats) (trainer.UpdateStats, error) {
	f := e.finHost
	B := float64(e.B)
	st.MeanReward, st.SolveRate = f[finReward]/B, f[finSolved]/B
	st.Loss = trainer.LossTerms{PG: f[finPG], Value: f[finValue], Entropy: f[finEntropy], Replay: replay}
	st.Loss.Total = st.Loss.PG + e.cfg.ValueCoef*st.Loss.Value + ec*st.Loss.Entropy
	if replay != 0 {
		st.Loss.Total += rc * replay
	}
	if err := enginekit.CheckLoss(u, st.Loss.Total); err != nil {
		return st, err
	}
	if groupEstimator(estimatorCode(e.cfg)) { // as cpu.Engine.Update reports it
		e.diag = trainer.Diagnostics{FlatGroups: f[finFlat] / float64(e.B/e.cfg.GroupSize()), Steps: 1}
		st.Diagnostics = &e.diag
	}
	st.GradNorm = f[finNorm]
	if err := enginekit.CheckGradNorm(u, st.GradNorm); err != nil {
		return st, err
	}
	e.adamStep++
	return st, nil
}

// record fills rec (trainer.Plan.Record) with the batch's episodes: each
// instance (the host's records, or the kernel's when it drew them), its
// program, its reward as the update's statistics sum it (float32, as the
// loss reads it) and whether it was correct.
func (e *engine) record(rec []task.Episode, drawnOnDevice bool) error {
	B, T := e.B, e.T
	recs := e.hostRecords(B)
	tok, out := e.host.tokens[:(T+1)*B], e.host.outcomes[:2*B]
	var err error
	if drawnOnDevice {
		err = download(recs, e.tasks)
	}
	if err == nil {
		err = download(tok, e.tokens)
	}
	if err == nil {
		err = download(out, e.outcome)
	}
	if err != nil {
		return err
	}
	for b := range rec {
		ep := &rec[b]
		ep.Instance = record.Unpack(recs[record.Words*b:])
		if in, ok := e.hostInstance(b); ok {
			ep.Instance = in
		}
		if len(ep.Program) < T {
			ep.Program = make([]int32, T)
		}
		for t := 0; t < T; t++ {
			ep.Program[t] = tok[(t+1)*B+b]
		}
		ep.Reward, ep.Correct = out[2*b], out[2*b+1] != 0
	}
	return nil
}
