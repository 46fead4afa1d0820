package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/simdrl/simdrl/trainer"
)

// ID names a run by what it computes: the first 16 hex digits of the
// sha256 of its resolved configuration (the recipe's values with its flags
// on top) and the final exhaustive evaluation's bound, which its report
// holds. The encoding is the Config's JSON (fields in declaration order,
// numbers in Go's shortest form), so `-lr 0.001` and `-lr 1e-3`, or the
// flags in another order, give one id, on every machine and in every
// re-plan. Threads are left out: they change no result.
func ID(cfg trainer.Config, exhaustive int) string {
	cfg.Threads = 0
	b, err := json.Marshal(struct {
		Config     trainer.Config `json:"config"`
		Exhaustive int            `json:"exhaustive"`
	}{cfg, exhaustive})
	if err != nil {
		panic("sweep: a Config that does not encode: " + err.Error()) // plain fields only
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
