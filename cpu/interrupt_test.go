package cpu

import (
	"bytes"
	"sync/atomic"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// manyChunks is a configuration whose passes have 64 chunks.
func manyChunks(threads int) trainer.Config {
	c := shortConfig()
	c.Batch, c.Chunk, c.Threads = 96*64, 96, threads
	c.EvalBatch, c.FinalEpisodes = 96*64, 96*64
	return c
}

func encoded(t *testing.T, e *testRun) []byte {
	b, err := checkpoint.Encode(snapshot(t, e))
	require.NoError(t, err)
	return b
}

// closeAfterFirstChunk makes e's next pass close a fresh interrupt from
// another goroutine once its first chunk is worked, and counts the chunks
// worked; the hook waits for the close, so the pass must notice it.
func closeAfterFirstChunk(e *testRun) *atomic.Int32 {
	stop := make(chan struct{})
	e.SetInterrupt(stop)
	var worked atomic.Int32
	e.pool.afterWork = func(int) {
		if worked.Add(1) == 1 {
			closedIt := make(chan struct{})
			go func() { close(stop); close(closedIt) }()
			<-closedIt
		}
	}
	return &worked
}

func uninterrupt(e *testRun) { e.SetInterrupt(nil); e.pool.afterWork = nil }

// oneUpdateBehind is two runs of cfg: ref after two updates (closed: it is
// only compared with), and tr after one with its parameters' hash and
// checkpoint, which an interrupted update of tr must leave as they are.
func oneUpdateBehind(t *testing.T, cfg trainer.Config) (ref, tr *testRun, sum string, ck []byte) {
	ref, err := newRun(cfg)
	require.NoError(t, err)
	for range 2 {
		_, err = ref.Update()
		require.NoError(t, err)
	}
	ref.Close()

	tr, err = newRun(cfg)
	require.NoError(t, err)
	_, err = tr.Update()
	require.NoError(t, err)
	return ref, tr, hash(t, tr), encoded(t, tr)
}

// TestInterruptedUpdateChangesNothing: an update interrupted before it
// starts or after its first chunk returns ErrInterrupted, leaves parameters,
// Adam's state, the counter and the checkpoint as they were, and the next
// update gives the parameters of an engine never interrupted.
func TestInterruptedUpdateChangesNothing(t *testing.T) {
	for _, threads := range []int{1, 2} {
		cfg := manyChunks(threads)
		ref, tr, sum, ck := oneUpdateBehind(t, cfg)

		stop := make(chan struct{})
		close(stop)
		tr.SetInterrupt(stop)
		_, err := tr.Update()
		require.ErrorIs(t, err, trainer.ErrInterrupted, "threads=%d: closed before", threads)
		require.Equal(t, 1, tr.Updates())
		require.Equal(t, sum, hash(t, tr))
		require.Equal(t, ck, encoded(t, tr))

		worked := closeAfterFirstChunk(tr)
		_, err = tr.Update()
		require.ErrorIs(t, err, trainer.ErrInterrupted, "threads=%d: closed after a chunk", threads)
		t.Logf("threads=%d: %d of 64 chunks worked", threads, worked.Load())
		require.Less(t, worked.Load(), int32(64/2), "the pass went on after the interrupt")
		require.Equal(t, 1, tr.Updates())
		require.Equal(t, sum, hash(t, tr))
		require.Equal(t, ck, encoded(t, tr))

		uninterrupt(tr)
		_, err = tr.Update()
		require.NoError(t, err)
		require.Equal(t, hash(t, ref), hash(t, tr), "threads=%d: the update after an interrupted one", threads)
		require.Equal(t, encoded(t, ref), encoded(t, tr))
		tr.Close()
	}
}

// TestInterruptedEvaluationStops: EvaluateAll and GreedyPrograms return
// ErrInterrupted between chunks, and the pool gives the same results after.
func TestInterruptedEvaluationStops(t *testing.T) {
	for _, threads := range []int{1, 2} {
		cfg := manyChunks(threads)
		tr, err := newRun(cfg)
		require.NoError(t, err)
		want, err := tr.EvaluateAll(cfg.FinalEpisodes, enginekit.FinalRound, task.HeldOut)
		require.NoError(t, err)
		ins := make([]task.Instance, 300)
		for i := range ins {
			ins[i] = enginekit.ExplainInstance(tr.task, rng.NewKey(cfg.Seed), 1, i)
		}
		progs := programs(t, tr, ins)

		worked := closeAfterFirstChunk(tr)
		_, err = tr.EvaluateAll(cfg.FinalEpisodes, enginekit.FinalRound, task.HeldOut)
		require.ErrorIs(t, err, trainer.ErrInterrupted)
		require.Less(t, worked.Load(), int32(64/2))
		_, err = tr.GreedyPrograms(ins)
		require.ErrorIs(t, err, trainer.ErrInterrupted)

		uninterrupt(tr)
		got, err := tr.EvaluateAll(cfg.FinalEpisodes, enginekit.FinalRound, task.HeldOut)
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.Equal(t, progs, programs(t, tr, ins))
		tr.Close()
	}
}

// TestInterruptedPassesAllocateNothing: an open interrupt costs nothing per
// update, and so does an interrupted update.
func TestInterruptedPassesAllocateNothing(t *testing.T) {
	for _, threads := range []int{1, 3} {
		c := shortConfig()
		c.Threads = threads
		tr, err := newRun(c)
		require.NoError(t, err)
		tr.SetInterrupt(make(chan struct{}))
		_, err = tr.Update()
		require.NoError(t, err)
		require.Zero(t, testing.AllocsPerRun(3, func() { _, _ = tr.Update() }), "threads=%d: update with an interrupt", threads)
		require.Zero(t, testing.AllocsPerRun(3, func() { tr.evaluate(2, 50, 9, task.HeldOut) }), "threads=%d: evaluation", threads)
		stop := make(chan struct{})
		close(stop)
		tr.SetInterrupt(stop)
		require.Zero(t, testing.AllocsPerRun(3, func() { _, _ = tr.Update() }), "threads=%d: interrupted update", threads)
		tr.Close()
	}
}

// driveConfig trains 5 updates of 8 chunks, evaluating every 2 (so the last
// update has no periodic evaluation), then explains and evaluates.
func driveConfig() trainer.Config {
	c := shortConfig()
	c.Batch, c.Chunk, c.Threads, c.Updates, c.EvalEvery = 96*8, 96, 2, 5, 2
	c.EvalBatch, c.FinalEpisodes, c.Explain = 96*4, 96*16, 2
	return c
}

// interruptDuring runs cfg through Drive on a fresh engine, closing the
// interrupt from another goroutine after the first chunk of the pass that
// when picks (it sees the engine); it returns the report, the checkpoints
// saved and the error.
func interruptDuring(t *testing.T, cfg trainer.Config, when func(e *testRun) bool) (*trainer.Report, []*checkpoint.File, error) {
	tr, err := newRun(cfg)
	require.NoError(t, err)
	stop := make(chan struct{})
	var once atomic.Bool
	tr.pool.afterWork = func(int) {
		if when(tr) && once.CompareAndSwap(false, true) {
			closedIt := make(chan struct{})
			go func() { close(stop); close(closedIt) }()
			<-closedIt
		}
	}
	var saved []*checkpoint.File
	rep, err := trainer.Drive(tr.tr, &bytes.Buffer{}, trainer.Options{SaveEvery: 1, Interrupt: stop, Save: func() error {
		saved = append(saved, roundTrip(t, tr))
		return nil
	}})
	return rep, saved, err
}

// TestDriveStopsInsideAnUpdate: an interrupt in the middle of update 4 ends
// the run with ErrInterrupted; the last checkpoint is update 3's and resumes
// to the parameters of a run never interrupted.
func TestDriveStopsInsideAnUpdate(t *testing.T) {
	cfg := driveConfig()
	full, err := run(t, cfg, &bytes.Buffer{})
	require.NoError(t, err)

	rep, saved, err := interruptDuring(t, cfg, func(e *testRun) bool { return e.Updates() == 3 && e.pool.j == job(&e.train) })
	require.ErrorIs(t, err, trainer.ErrInterrupted)
	require.True(t, rep.Interrupted)
	require.Equal(t, 3, rep.Updates)
	require.Len(t, saved, 3)
	require.Nil(t, rep.Explanations, "nothing concluded after an interrupted update")

	tr, err := resume(saved[2], cfg)
	require.NoError(t, err)
	require.Equal(t, 3, tr.Updates())
	rest, err := trainer.Drive(tr.tr, &bytes.Buffer{}, trainer.Options{})
	require.NoError(t, err)
	require.Equal(t, full.ParamSHA256, rest.ParamSHA256)
	require.Equal(t, full.Final, rest.Final)
}

// TestDriveRedoesAnInterruptedEvaluation: an interrupt inside update 2's
// periodic evaluation stops the run at once (an evaluation can be as long
// as -eval-batch makes it); the curriculum has not observed it, the
// checkpoint marks it pending, and the resumed run redoes it first, so that
// it ends bit-identical to a run never interrupted. (It used to be run whole,
// deaf to signals.)
func TestDriveRedoesAnInterruptedEvaluation(t *testing.T) {
	cfg := driveConfig()
	full, err := run(t, cfg, &bytes.Buffer{})
	require.NoError(t, err)

	rep, saved, err := interruptDuring(t, cfg, func(e *testRun) bool { return e.Updates() == 2 && e.pool.j == job(&e.eval) })
	require.ErrorIs(t, err, trainer.ErrInterrupted)
	require.Equal(t, 2, rep.Updates)
	require.Empty(t, rep.Evaluations, "cut short, not reported")

	tr, err := resume(saved[len(saved)-1], cfg)
	require.NoError(t, err)
	require.Equal(t, true, savedState(t, tr)["eval_pending"], "the cut evaluation is pending")
	rest, err := trainer.Drive(tr.tr, &bytes.Buffer{}, trainer.Options{})
	require.NoError(t, err)
	updates := func(r *trainer.Report) (u []int) {
		for _, p := range r.Evaluations {
			u = append(u, p.Update)
		}
		return u
	}
	require.Equal(t, updates(full), updates(rest), "the pending evaluation of update 2 is redone first")
	require.Equal(t, full.Evaluations[0].SolveRate, rest.Evaluations[0].SolveRate)
	require.Equal(t, full.ParamSHA256, rest.ParamSHA256)
	require.Equal(t, full.Final, rest.Final)
}

// TestDriveRedoesAnInterruptedConfirmation: the same inside a confirming
// evaluation (confirmConfig's first, after update 8): the periodic
// evaluation it follows is not applied either, and the resumed run stops
// where the uninterrupted one does.
func TestDriveRedoesAnInterruptedConfirmation(t *testing.T) {
	cfg := confirmConfig()
	full, err := run(t, cfg, &bytes.Buffer{})
	require.NoError(t, err)
	require.NotEmpty(t, full.Confirmations)
	first := full.Confirmations[0].Update

	rep, saved, err := interruptDuring(t, cfg, func(e *testRun) bool {
		return e.pool.j == job(&e.eval) && e.eval.round == enginekit.ConfirmRound(first)
	})
	require.ErrorIs(t, err, trainer.ErrInterrupted)
	require.Equal(t, first, rep.Updates)
	require.Empty(t, rep.Confirmations)

	tr, err := resume(saved[len(saved)-1], cfg)
	require.NoError(t, err)
	require.Equal(t, true, savedState(t, tr)["eval_pending"], "the cut evaluation is pending")
	rest, err := trainer.Drive(tr.tr, &bytes.Buffer{}, trainer.Options{})
	require.NoError(t, err)
	require.Equal(t, full.Confirmations, rest.Confirmations)
	require.Equal(t, full.Updates, rest.Updates)
	require.Equal(t, full.ParamSHA256, rest.ParamSHA256)
}

// TestDriveStopsTheFinalEvaluation: an interrupt during the final
// evaluation returns ErrInterrupted with the report as far as it got (the
// explanations, no final figures), after the checkpoint of the last update.
func TestDriveStopsTheFinalEvaluation(t *testing.T) {
	cfg := driveConfig()
	rep, saved, err := interruptDuring(t, cfg, func(e *testRun) bool { return e.Updates() == 5 && e.pool.j == job(&e.eval) })
	require.ErrorIs(t, err, trainer.ErrInterrupted)
	require.True(t, rep.Interrupted)
	require.Equal(t, 5, rep.Updates)
	require.Len(t, saved, 5)
	require.Len(t, rep.Explanations, 2*len(rep.Levels))
	require.Nil(t, rep.FinalByLevel)
	require.Nil(t, rep.Final.SolveRate)
	require.NotEmpty(t, rep.ParamSHA256)
}

// closeAtStep makes e's next pass close a fresh interrupt after rollout step
// at of its first chunk to get there (on that worker's goroutine, so the
// close is an event of the pass, not of a clock), and counts the rollout
// steps that any worker completes after the close.
func closeAtStep(e *testRun, at int) *atomic.Int32 {
	stop := make(chan struct{})
	e.SetInterrupt(stop)
	var claimed atomic.Bool
	var after atomic.Int32
	for _, w := range e.pool.workers {
		w.afterStep = func(t int) {
			// A step counts once the close has happened, not once a worker
			// has claimed it: a worker descheduled between its claim and
			// its close lets the others run on, as the engine should.
			if closed(stop) {
				after.Add(1)
			} else if t == at && claimed.CompareAndSwap(false, true) {
				close(stop)
			}
		}
	}
	return &after
}

func unhookSteps(e *testRun) {
	e.SetInterrupt(nil)
	for _, w := range e.pool.workers {
		w.afterStep = nil
	}
}

// TestInterruptCutsAChunkBetweenSteps: an interrupt stops a pass at its
// workers' next step, not at the end of their chunks (a chunk of a large
// model takes seconds): closed in a rollout, every other worker finishes at
// most the step it is in (threads−1 steps in all after the close); closed
// after a rollout's last step, the backward gives up, so even a pass of one
// chunk is interrupted. The update changes nothing and the next one is an
// uninterrupted engine's; an evaluation stops the same way.
func TestInterruptCutsAChunkBetweenSteps(t *testing.T) {
	for _, threads := range []int{1, 2} {
		for _, oneChunk := range []bool{false, true} {
			cfg := manyChunks(threads)
			at := 1
			if oneChunk {
				cfg.Batch, at = cfg.Chunk, cfg.Steps-1 // in the backward
			}
			ref, tr, sum, ck := oneUpdateBehind(t, cfg)

			after := closeAtStep(tr, at)
			_, err := tr.Update()
			require.ErrorIs(t, err, trainer.ErrInterrupted, "threads=%d oneChunk=%v", threads, oneChunk)
			require.LessOrEqual(t, after.Load(), int32(threads-1), "threads=%d oneChunk=%v: rollout steps after the close", threads, oneChunk)
			require.Equal(t, 1, tr.Updates())
			require.Equal(t, sum, hash(t, tr))
			require.Equal(t, ck, encoded(t, tr))

			if !oneChunk {
				after = closeAtStep(tr, at)
				_, err = tr.EvaluateAll(cfg.FinalEpisodes, enginekit.FinalRound, task.HeldOut)
				require.ErrorIs(t, err, trainer.ErrInterrupted)
				require.LessOrEqual(t, after.Load(), int32(threads-1), "threads=%d: evaluation steps after the close", threads)
			}

			unhookSteps(tr)
			_, err = tr.Update()
			require.NoError(t, err)
			require.Equal(t, hash(t, ref), hash(t, tr), "threads=%d oneChunk=%v: the update after an interrupted one", threads, oneChunk)
			require.Equal(t, encoded(t, ref), encoded(t, tr))
			tr.Close()
		}
	}
}
