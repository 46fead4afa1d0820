package trainer

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// driveConfig is a short run of the default recipe: evaluations every 5
// updates, no explanations, a small final evaluation.
func driveConfig() Config {
	cfg := DefaultRecipe()
	cfg.Updates, cfg.EvalEvery, cfg.EvalBatch, cfg.Explain, cfg.FinalEpisodes = 20, 5, 100, 0, 10
	return cfg
}

// TestDriveStoppingRules: the run ends at the configured updates, or at the
// periodic evaluation whose confirmation supports stop_at.
func TestDriveStoppingRules(t *testing.T) {
	for _, c := range []struct {
		name          string
		stopAt        float64
		rate          func(c call, level int) float64
		updates       int
		confirmations int
	}{
		{"never solved", 0.99, func(call, int) float64 { return 0.5 }, 20, 0},
		{"solved from update 10", 0.99, func(c call, _ int) float64 {
			if c.round >= 10 {
				return 1
			}
			return 0.5
		}, 10, 1},
		{"stop_at 0 runs to the end", 0, func(call, int) float64 { return 1 }, 20, 0},
		{"confirmation fails every time", 0.99, func(c call, _ int) float64 {
			if isConfirmation(c) {
				return 0.9
			}
			return 1
		}, 20, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := driveConfig()
			cfg.StopAt = c.stopAt
			tr, _ := newFakeRun(cfg, c.rate)
			rep, err := Drive(tr, &bytes.Buffer{}, Options{Quiet: true})
			require.NoError(t, err)
			require.Equal(t, c.updates, rep.Updates)
			require.Len(t, rep.Confirmations, c.confirmations)
			require.Len(t, rep.Evaluations, c.updates/cfg.EvalEvery)
			require.Equal(t, cfg.FinalEpisodes, rep.Final.Episodes, "the final evaluation runs after either stop")
		})
	}
}

// TestDriveSaves: Save runs every SaveEvery updates and once at the end,
// never twice at one update; an interrupt between updates stops the run
// after the update under way and saves it.
func TestDriveSaves(t *testing.T) {
	for _, c := range []struct {
		name        string
		saveEvery   int
		interruptAt int // 0: never
		saved       []int
	}{
		{"at the end only", 0, 0, []int{20}},
		{"every 7", 7, 0, []int{7, 14, 20}},
		{"every 10, the end not again", 10, 0, []int{10, 20}},
		{"interrupted after 8", 5, 8, []int{5, 8}},
		{"interrupted at a save", 5, 10, []int{5, 10}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, e := newFakeRun(driveConfig(), func(call, int) float64 { return 0.5 })
			stop := make(chan struct{})
			if c.interruptAt > 0 {
				e.afterUpdate = func(u int) {
					if u == c.interruptAt {
						close(stop)
					}
				}
			}
			var saved []int
			opt := Options{Quiet: true, SaveEvery: c.saveEvery, Interrupt: stop,
				Save: func() error { saved = append(saved, tr.Updates()); return nil }}
			var out bytes.Buffer
			rep, err := Drive(tr, &out, opt)
			require.Equal(t, c.saved, saved)
			if c.interruptAt == 0 {
				require.NoError(t, err)
				require.False(t, rep.Interrupted)
				return
			}
			require.ErrorIs(t, err, ErrInterrupted)
			require.True(t, rep.Interrupted)
			require.Equal(t, c.interruptAt, rep.Updates)
			require.Len(t, e.planLevels, c.interruptAt, "no update after the interrupt")
			require.Zero(t, rep.Final.Episodes, "no final evaluation after an interrupt")
			require.Contains(t, out.String(), "interrupted: stopped after update")
		})
	}
}

// TestDrivePendingEvaluationRedone: an interrupt inside update 10's periodic
// evaluation leaves it pending (saved with the checkpoint) and the
// curriculum as it was; the next Drive redoes it on the same round before
// training on.
func TestDrivePendingEvaluationRedone(t *testing.T) {
	for _, inConfirmation := range []bool{false, true} {
		cfg := driveConfig()
		tr, e := newFakeRun(cfg, func(c call, _ int) float64 {
			if c.round == 10 {
				return 1 // nominates: a confirmation follows
			}
			return 0.5
		})
		stop := make(chan struct{})
		e.evalErr = func(c call) error {
			confirming := isConfirmation(c)
			if c.round&^(1<<31) == 10 && confirming == inConfirmation {
				close(stop)
				e.evalErr = nil
				return ErrInterrupted
			}
			return nil
		}
		var saved []int
		opt := Options{Quiet: true, Interrupt: stop, Save: func() error { saved = append(saved, tr.Updates()); return nil }}
		rep, err := Drive(tr, &bytes.Buffer{}, opt)
		require.ErrorIs(t, err, ErrInterrupted)
		require.Equal(t, 10, rep.Updates)
		require.Equal(t, []int{10}, saved)
		require.True(t, tr.cur.pendingEval, "the cut evaluation is pending")
		require.Len(t, rep.Evaluations, 1, "only update 5's evaluation completed")
		require.Empty(t, rep.Confirmations, "the curriculum saw nothing of update 10")

		e.calls = nil
		var out bytes.Buffer
		rep, err = Drive(tr, &out, Options{})
		require.NoError(t, err)
		require.Equal(t, call{cfg.EvalBatch, 10, e.calls[0].split}, e.calls[0], "the pending evaluation comes first, on its round")
		require.Equal(t, 10, rep.Evaluations[0].Update)
		require.False(t, tr.cur.pendingEval)
		require.Len(t, rep.Confirmations, 1, "the redone evaluation nominates again")
		require.Contains(t, out.String(), "(the evaluation an interrupt cut short, redone)")
	}
}

// TestDriveCurricula: the block curriculum gives every update its block's
// level, the mixed one lets each episode draw (level −1) from the unlocked
// levels; with unlock_at, the next level joins once the newest is solved.
func TestDriveCurricula(t *testing.T) {
	solvedUpTo := func(level int) func(call, int) float64 {
		return func(_ call, l int) float64 {
			if l <= level {
				return 1
			}
			return 0
		}
	}
	for _, c := range []struct {
		name     string
		config   func(*Config)
		rate     func(call, int) float64
		levels   []int   // per update
		played   [][]int // per update; nil: not checked
		unlocked []int   // levels played at the end
	}{
		{"blocks", func(c *Config) {
			c.Curriculum, c.Updates, c.TrainLevels, c.StopAt = "blocks", 8, []int{0, 0, 1, 2}, 0
		}, solvedUpTo(2), []int{0, 0, 0, 0, 1, 1, 2, 2}, nil, []int{0, 1, 2}},
		{"blocks past the list", func(c *Config) {
			c.Curriculum, c.Updates, c.TrainLevels, c.StopAt = "blocks", 7, []int{1, 2}, 0
		}, solvedUpTo(2), []int{1, 1, 1, 2, 2, 2, 2}, nil, []int{1, 2}},
		{"mixed, all unlocked", func(c *Config) {
			c.Updates, c.StopAt = 6, 0
		}, solvedUpTo(2), []int{-1, -1, -1, -1, -1, -1}, [][]int{{0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}}, []int{0, 1, 2}},
		{"mixed, unlock at 0.9", func(c *Config) {
			c.Updates, c.EvalEvery, c.UnlockAt, c.StopAt = 6, 2, 0.9, 0
		}, solvedUpTo(1), []int{-1, -1, -1, -1, -1, -1}, [][]int{{0}, {0}, {0, 1}, {0, 1}, {0, 1, 2}, {0, 1, 2}}, []int{0, 1, 2}},
		{"mixed, unlock waits for the newest", func(c *Config) {
			c.Updates, c.EvalEvery, c.UnlockAt, c.StopAt = 6, 2, 0.9, 0
		}, solvedUpTo(-1), []int{-1, -1, -1, -1, -1, -1}, [][]int{{0}, {0}, {0}, {0}, {0}, {0}}, []int{0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := driveConfig()
			c.config(&cfg)
			tr, e := newFakeRun(cfg, c.rate)
			_, err := Drive(tr, &bytes.Buffer{}, Options{Quiet: true})
			require.NoError(t, err)
			require.Equal(t, c.levels, e.planLevels)
			if c.played != nil {
				require.Equal(t, c.played, e.played)
			}
			require.Equal(t, c.unlocked, tr.cur.played())
		})
	}
}

// TestFocusWeights: with focus, a mixed curriculum weights each played
// level by 0.1 + its last failure rate; without, uniformly; before any
// evaluation, uniformly either way.
func TestFocusWeights(t *testing.T) {
	ev := []EvalResult{{Level: 0, SolveRate: 1}, {Level: 1, SolveRate: 0.5}, {Level: 2, SolveRate: 0}}
	for _, c := range []struct {
		name    string
		focus   bool
		observe bool
		weights []float64
	}{
		{"focus", true, true, []float64{0.1, 0.6, 1.1}},
		{"focus, no evaluation yet", true, false, []float64{1, 1, 1}},
		{"uniform", false, true, []float64{1, 1, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := driveConfig()
			cfg.Focus = c.focus
			cur := newCurriculum(cfg, 3)
			if c.observe {
				cur.observe(ev)
			}
			require.Equal(t, -1, cur.levelOf(1), "refreshes the weights")
			sum := c.weights[0] + c.weights[1] + c.weights[2]
			want := []float64{c.weights[0] / sum, (c.weights[0] + c.weights[1]) / sum, 1}
			require.InDeltaSlice(t, want, cur.cdf, 1e-12)
		})
	}
}
