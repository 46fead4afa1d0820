package trainer

import (
	"bytes"
	"sync/atomic"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// listingTask is echoTask on three levels whose listing tells the test of
// each call: the first one closes stop (an interrupt that comes as the
// listing begins) and, when release is set, waits for it (a listing that
// takes seconds: the branching tape's 16,000 instances on a loaded
// machine).
type listingTask struct {
	echoTask
	stop    chan struct{}
	release chan struct{}
	calls   atomic.Int32
	panics  bool
}

func (*listingTask) Levels() []task.Level {
	l := echoTask{}.Levels()[0]
	return []task.Level{l, l, l}
}

func (lt *listingTask) Instances(level int, split task.Split, max int) []task.Instance {
	if lt.calls.Add(1) == 1 {
		if lt.panics {
			panic("listing broke")
		}
		close(lt.stop)
		if lt.release != nil {
			<-lt.release
		}
	}
	return lt.echoTask.Instances(level, split, max)
}

func newListingTrainer(lt *listingTask) (*Trainer, *echoEngine) {
	lt.stop = make(chan struct{})
	e := &echoEngine{fakeEngine: fakeEngine{steps: 2}}
	return &Trainer{task: lt, cfg: Config{Steps: 2}, e: e, interrupt: lt.stop}, e
}

// TestInterruptStopsTheExhaustiveListing: SIGINT early in the branching
// tape's final phase took up to 1.9 s, the exhaustive evaluation listing
// every level's instances before it looked at the interrupt. Now it looks
// before each listing: one begun, none after it, nothing played.
func TestInterruptStopsTheExhaustiveListing(t *testing.T) {
	lt := &listingTask{}
	tr, e := newListingTrainer(lt)
	_, err := exhaustive(tr, MaxExhaustive, planTo(&bytes.Buffer{}))
	require.ErrorIs(t, err, ErrInterrupted)
	require.EqualValues(t, 1, lt.calls.Load(), "listings begun after the interrupt")
	require.Empty(t, e.batches, "nothing is played after the interrupt")
}

// TestInterruptDoesNotWaitForAListing: the interrupt takes effect while a
// listing is under way: it returns ErrInterrupted while the task's Instances
// is still blocked (a trainer that waited for the listing would wait here
// for good, and fail at the test binary's -timeout), and the listing cut
// short is not kept. The stop rule's look at the training split
// (trainingSubsets, during training) is cut the same way.
func TestInterruptDoesNotWaitForAListing(t *testing.T) {
	for _, name := range []string{"exhaustive", "trainingSubsets"} {
		lt := &listingTask{release: make(chan struct{})}
		tr, e := newListingTrainer(lt)
		var err error
		if name == "exhaustive" {
			_, err = exhaustive(tr, MaxExhaustive, planTo(&bytes.Buffer{}))
		} else {
			_, err = trainingSubsets(tr, []int{0, 1, 2})
		}
		require.ErrorIs(t, err, ErrInterrupted, name)
		close(lt.release)
		require.EqualValues(t, 1, lt.calls.Load(), name)
		require.Empty(t, e.batches, name)
		require.Empty(t, tr.lists, "%s: a listing cut short is not kept", name)
	}
}

// TestPanicInAListingIsTheTasksError: a listing runs on a goroutine of its
// own; a panic there is the task's error, not the process's end.
func TestPanicInAListingIsTheTasksError(t *testing.T) {
	lt := &listingTask{panics: true}
	tr, _ := newListingTrainer(lt)
	_, err := exhaustive(tr, MaxExhaustive, planTo(&bytes.Buffer{}))
	var pe *task.PanicError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, "echo", pe.Task)
	require.Contains(t, err.Error(), "listing broke")
}
