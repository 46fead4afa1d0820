//go:build cgo

package gpu

// statWords is the float64 statistics of a block (SIMDRL_NSTATS): the
// rollout's and simdrl_estimate's block_stats rows.
const statWords = nStats

// estimateThreads is simdrl_estimate's block size (SIMDRL_ESTIMATE_THREADS):
// a thread per group.
const estimateThreads = 64

// estimateBlocks is how many blocks simdrl_estimate takes for n episodes
// in groups of group.
func estimateBlocks(n, group int) int { return ceilDiv(n/group, estimateThreads) }

// estimate launches simdrl_estimate after the batch's training rollout of
// nb blocks, for a group estimator: it writes the loss weights of every
// group and its blocks' share of the loss terms after the rollout's block
// statistics (whose loss terms the rollout left 0), and returns its block
// count, which finishWith sums with the rollout's. entropy is the update's
// entropy coefficient.
func (e *engine) estimate(nb int, entropy float64) (int, error) {
	K, n := e.cfg.GroupSize(), e.last.n
	blocks := estimateBlocks(n, K)
	a := e.a.reset()
	a.i32("estimator", estimatorCode(e.cfg)).i32("B", n).i32("T", e.T).i32("group", K).flag("mask", e.cfg.MaskAfterAnswer).
		f64("value_coef", e.cfg.ValueCoef).f64("entropy_coef", entropy).i32("loss_batch", n).
		ptr("logpa", e.logpa).ptr("val", e.val).ptr("ent", e.ent).ptr("ep_return", e.epReturn).ptr("ep_end", e.epEnd).
		ptr("dlogp", e.dlogp).ptr("dent", e.dent).ptr("dval", e.dval).ptr("block_stats", e.stats.at(2*statWords*nb))
	return blocks, e.launch("simdrl_estimate", [3]int{blocks, 1, 1}, [3]int{estimateThreads, 1, 1}, 0, a)
}
