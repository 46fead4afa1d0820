//go:build cgo

package devfn

/*
#cgo CFLAGS: -O2 -std=c99
#cgo LDFLAGS: -lm
#include "../../kernels/ppo.cuh"
*/
import "C"

import "unsafe"

// PPOStep is simdrl_ppo_step (enginekit.PPOStep's twin).
func PPOStep(logp, oldLogp, adv, v, oldV, ret, clip float64, clipV bool) (pg, dpg, vl, dv float64) {
	o := C.simdrl_ppo_step(C.double(logp), C.double(oldLogp), C.double(adv), C.double(v), C.double(oldV), C.double(ret), C.double(clip), cbool(clipV))
	return float64(o.pg), float64(o.dpg), float64(o.vl), float64(o.dv)
}

// PPOSums are simdrl_ppo_sums.
type PPOSums struct{ PG, Value, Entropy, KL, Clipped float64 }

// PPOEpisode is simdrl_ppo_episode on one episode of T steps replayed at
// stride s (its new logpa, val, ent and the weights at t*s) and stored at
// stride 1 (oldLogp, oldVal, adv, ret); it returns the sums and the weights
// dlogp, dent, dval (T·s long, written at t*s).
func PPOEpisode(T, s int, logpa, val, ent, oldLogp, oldVal, adv, ret []float32, end int, mean, scale, steps, clip float64, clipV bool,
	valueCoef, entropyCoef float64) (PPOSums, []float32, []float32, []float32) {
	dl, de, dv := make([]float32, T*s), make([]float32, T*s), make([]float32, T*s)
	f := func(x []float32) *C.float { return (*C.float)(unsafe.Pointer(&x[0])) }
	o := C.simdrl_ppo_episode(C.int(T), C.int(s), f(logpa), f(val), f(ent), f(oldLogp), f(oldVal), f(adv), f(ret), C.int(end), C.double(mean),
		C.double(scale), C.double(steps), C.double(clip), cbool(clipV), C.double(valueCoef), C.double(entropyCoef), f(dl), f(de), f(dv))
	return PPOSums{float64(o.pg), float64(o.value), float64(o.entropy), float64(o.kl), float64(o.clipped)}, dl, de, dv
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
