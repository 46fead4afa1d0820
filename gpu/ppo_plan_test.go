package gpu

import (
	"reflect"
	"testing"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestPPOHostPlanIsEveryBuffer: ppoHostPlan lists each field of ppoStore
// exactly once, with the bytes its make gives it; hostMemory counts them
// for -estimator ppo; without it the plan is empty.
func TestPPOHostPlanIsEveryBuffer(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	tk, err := cfg.OpenTask()
	require.NoError(t, err)
	l, err := enginekit.NewLayout(cfg.Hidden, tk)
	require.NoError(t, err)
	require.Empty(t, ppoHostPlan(cfg, l, &ppoStore{}), "no PPO, no buffers")
	without := hostMemory(cfg, tk, l)

	cfg.Estimator, cfg.PPOMinibatches = trainer.EstimatorPPO, 4
	var s ppoStore
	planned, sum := map[string]float64{}, 0.0
	for _, b := range ppoHostPlan(cfg, l, &s) {
		require.NotContains(t, planned, b.field, "%s planned twice", b.field)
		require.Positive(t, b.bytes, b.field)
		b.make()
		planned[b.field] = b.bytes
		sum += b.bytes
	}
	v := reflect.ValueOf(s)
	for i := 0; i < v.NumField(); i++ {
		f, field := v.Field(i), v.Type().Field(i).Name
		require.Equal(t, reflect.Slice, f.Kind(), field)
		require.Contains(t, planned, field, "ppoStore.%s is not in the plan", field)
		require.Equal(t, planned[field], float64(f.Len())*float64(f.Type().Elem().Size()), "ppoStore.%s's bytes", field)
		delete(planned, field)
	}
	require.Empty(t, planned, "planned buffers that are no field of ppoStore")
	with := hostMemory(cfg, tk, l)
	require.InDelta(t, without.Total()+sum, with.Total(), 0.5, "hostMemory counts the stored rollout")
}
