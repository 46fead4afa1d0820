package cpu

import (
	"syscall"
	"testing"
	"time"

	"github.com/simdrl/simdrl/trainer"
)

// BenchmarkCountdown4Update and BenchmarkGame24Update time one training
// update of the search tasks at their default (untuned) recipe on one
// thread: 192 episodes of up to 256 steps (Countdown observing its token,
// the 24 Game its vector: their defaults) under
// the no-revisit rule with its legal-action mask, the update that issue
// 53's 15-minute bar multiplies by 10,000. The engine first runs
// warmUpdates updates, so that the timed episodes are a learning policy's,
// not the first update's; b.N updates then continue the same run, so
// compare two builds at one fixed count (-benchtime 50x).
func BenchmarkCountdown4Update(b *testing.B) { benchTaskUpdate(b, "countdown4", "") }

// BenchmarkGame24Update: BenchmarkCountdown4Update's update for the 24 Game.
func BenchmarkGame24Update(b *testing.B) { benchTaskUpdate(b, "game24", "") }

// BenchmarkGame24TokenUpdate: the 24 Game's default but observing the
// token (observe=token), its default before the vector: what the vector
// costs.
func BenchmarkGame24TokenUpdate(b *testing.B) { benchTaskUpdate(b, "game24", "observe=token") }

// BenchmarkCountdown4PlainUpdate and BenchmarkGame24PlainUpdate are the
// games before the rule (revisit=on, 128 steps, the token observed), whose
// figures BENCHMARKS.md compares across commits.
func BenchmarkCountdown4PlainUpdate(b *testing.B) { benchTaskUpdate(b, "countdown4", plainGame) }

// BenchmarkGame24PlainUpdate: BenchmarkCountdown4PlainUpdate's for the 24 Game.
func BenchmarkGame24PlainUpdate(b *testing.B) { benchTaskUpdate(b, "game24", plainGame) }

const plainGame = "revisit=on; budget=128; observe=token"

const warmUpdates = 20

func benchTaskUpdate(b *testing.B, name, spec string) {
	c := trainer.DefaultRecipe()
	c.Task, c.TaskSpec, c.Threads = name, spec, 1
	c, err := trainer.WithTask(c)
	if err != nil {
		b.Fatal(err)
	}
	t, err := newRun(c)
	if err != nil {
		b.Fatal(err)
	}
	defer t.Close()
	for range warmUpdates {
		if _, err := t.Update(); err != nil {
			b.Fatal(err)
		}
	}
	live0 := t.liveSteps
	cpu0 := cpuTime(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := t.Update(); err != nil {
			b.Fatal(err)
		}
	}
	s := b.Elapsed().Seconds()
	cpu := (cpuTime(b) - cpu0).Seconds()
	b.ReportMetric(float64(t.liveSteps-live0)/float64(b.N*c.Batch), "live-steps/episode")
	b.ReportMetric(s/float64(b.N)*1e3, "ms/update")
	// On a shared machine the wall time counts the turns other processes
	// take on the core; the process's CPU time counts only its own.
	b.ReportMetric(cpu/float64(b.N)*1e3, "cpu-ms/update")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
