//go:build cgo

package gpu

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/gpu/internal/devfn"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestStatSlotsAreTheKernels: the Go names of a block's statistics and of
// fin's slots are common.cuh's numbers (the flat groups' column moved the
// slots after it).
func TestStatSlotsAreTheKernels(t *testing.T) {
	require.Equal(t, []int{statReward, statSolved, statPG, statValue, statEntropy, statFlat, nStats}, devfn.Stats())
	require.Equal(t, []int{finReward, finSolved, finPG, finValue, finEntropy, finFlat, finSumSq, finNorm, finScale, finOK}, devfn.Fin())
	require.Equal(t, nStats, statWords)
}

// flatRuns are the CPU's and the GPU's runs of a test's configurations:
// the seed task (drawn and played by the kernels), calc (drawn on the
// host, played by the kernels) and the walk (a Go game the host steps).
func flatRuns(t *testing.T, name string, cfg trainer.Config) (updater, updater) {
	if name == "walk" {
		return walkRuns(t, cfg, walkTask{})
	}
	host, err := newHostRun(cfg)
	require.NoError(t, err, name)
	t.Cleanup(host.Close)
	g, err := newGPURun(cfg)
	require.NoError(t, err, name)
	t.Cleanup(g.Close)
	return host, g
}

// flatConfigs are groupTaskConfigs and the walk, for estimator est ("" the
// step baseline, "sum" the seed's).
func flatConfigs(t *testing.T, est string, K int, mask bool) map[string]trainer.Config {
	out := groupTaskConfigs(t)
	for name, c := range out {
		switch est {
		case "sum":
			c.Baseline, c.MaskAfterAnswer = "sum", false
		case "":
		default:
			c.Estimator, c.Group, c.MaskAfterAnswer = est, K, mask
		}
		out[name] = c
	}
	out["walk"] = walkConfig(est)
	return out
}

// TestGPUFlatGroupsMatchCPU: with each group estimator, in groups of 2, 3
// and 4, the GPU reports the CPU's Diagnostics.FlatGroups update by update
// (its count on the device for the kernels' rollouts, on the host for the
// walk's), with Steps 1, on tasks and updates where the fraction is
// strictly between 0 and 1 at least once (so that a count off by a group
// shows); the step and sum baselines report no diagnostics on either.
func TestGPUFlatGroupsMatchCPU(t *testing.T) {
	openGPU(t).Close()
	const updates = 3
	for i, est := range trainer.GroupEstimators {
		for name, cfg := range flatConfigs(t, est, 2+i, i%2 == 0) {
			label := fmt.Sprintf("%s %s group %d", name, est, cfg.GroupSize())
			host, g := flatRuns(t, name, cfg)
			between := false
			for u := 1; u <= updates; u++ {
				want, err := host.Update()
				require.NoError(t, err, label)
				got, err := g.Update()
				require.NoError(t, err, label)
				require.NotNil(t, want.Diagnostics, "%s update %d: the CPU's", label, u)
				require.NotNil(t, got.Diagnostics, "%s update %d: the GPU's", label, u)
				t.Logf("%s update %d: flat groups CPU %.4f GPU %.4f", label, u, want.Diagnostics.FlatGroups, got.Diagnostics.FlatGroups)
				require.Equal(t, want.Diagnostics.FlatGroups, got.Diagnostics.FlatGroups, "%s update %d: flat groups", label, u)
				require.Equal(t, 1, got.Diagnostics.Steps, label)
				between = between || (got.Diagnostics.FlatGroups > 0 && got.Diagnostics.FlatGroups < 1)
			}
			require.True(t, between, "%s: some update has some groups flat and some not", label)
		}
	}
	for _, est := range []string{"", "sum"} {
		for name, cfg := range flatConfigs(t, est, 1, false) {
			host, g := flatRuns(t, name, cfg)
			want, err := host.Update()
			require.NoError(t, err, name)
			got, err := g.Update()
			require.NoError(t, err, name)
			require.Nil(t, want.Diagnostics, "%s baseline %q on the CPU", name, est)
			require.Nil(t, got.Diagnostics, "%s baseline %q on the GPU", name, est)
		}
	}
}
