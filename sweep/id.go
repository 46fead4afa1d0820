package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/simdrl/simdrl/trainer"
)

// ID names a run by what it computes: the first 16 hex digits of the
// sha256 of its resolved configuration (the recipe's values with its flags
// on top), the final exhaustive evaluation's bound and its sampled
// evaluation, which its report holds. The encoding is the Config's JSON
// (fields in declaration order, numbers in Go's shortest form), so `-lr
// 0.001` and `-lr 1e-3`, or the flags in another order, give one id, on
// every machine and in every re-plan. Threads are left out: they change no
// result. A run without a sampled evaluation has the id it had before the
// sampled evaluation counted, so a manifest planned then still matches.
func ID(cfg trainer.Config, exhaustive int, sampled Sampled) string {
	cfg.Threads = 0
	b, err := json.Marshal(struct {
		Config     trainer.Config `json:"config"`
		Exhaustive int            `json:"exhaustive"`
		Sampled    *Sampled       `json:"sampled,omitempty"`
	}{cfg, exhaustive, sampled.normal()})
	if err != nil {
		panic("sweep: a Config that does not encode: " + err.Error()) // plain fields only
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Sampled is a run's sampled evaluation (-eval-samples, -eval-pass-k,
// -eval-temperature): it trains nothing, but two runs that differ in it
// report different figures, so they are two runs.
type Sampled struct {
	Samples     int     `json:"samples"`
	PassK       int     `json:"pass_k"`
	Temperature float64 `json:"temperature"`
}

// normal is s as the run reads it (a pass@k of 0 is pass@Samples), or nil
// for no sampled evaluation, whatever its other settings.
func (s Sampled) normal() *Sampled {
	if s.Samples <= 0 {
		return nil
	}
	if s.PassK == 0 {
		s.PassK = s.Samples
	}
	return &s
}
