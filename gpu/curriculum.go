package gpu

// packMix packs the levels a mixed curriculum plays (trainer.Plan's
// Played) one per byte, as simdrl_draw_level reads them.
func packMix(played []int) int {
	p := 0
	for i, s := range played {
		p |= s << (8 * i)
	}
	return p
}
