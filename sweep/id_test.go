package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestIDWithoutSampledIsTodays: a run with no sampled evaluation keeps the
// id of the encoding before the sampled evaluation counted (config and
// exhaustive bound only), so manifests planned then still name their runs.
func TestIDWithoutSampledIsTodays(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	cfg.Seed, cfg.Threads = 7, 0 // ID leaves threads out
	b, err := json.Marshal(struct {
		Config     trainer.Config `json:"config"`
		Exhaustive int            `json:"exhaustive"`
	}{cfg, 300})
	require.NoError(t, err)
	sum := sha256.Sum256(b)
	then := hex.EncodeToString(sum[:8])
	require.Equal(t, then, ID(cfg, 300, Sampled{}))
	require.Equal(t, then, ID(cfg, 300, Sampled{PassK: 2, Temperature: 0.5}), "no samples: no sampled evaluation")
	require.NotEqual(t, then, ID(cfg, 300, Sampled{Samples: 4, Temperature: 1}))
	require.Equal(t, ID(cfg, 300, Sampled{Samples: 4, Temperature: 1}), ID(cfg, 300, Sampled{Samples: 4, PassK: 4, Temperature: 1}))
}
