package rng

// Purpose separates the independent uses of randomness, so that, for
// example, drawing a task never shares numbers with sampling an action.
type Purpose uint32

const (
	PurposeTask       Purpose = 1 // the digits of a training task
	PurposeAction     Purpose = 2 // the uniform number that samples one action
	PurposeLevel      Purpose = 3 // which level an episode plays, when a batch mixes levels
	PurposeEval       Purpose = 4 // the digits of an evaluation task
	PurposeItem       Purpose = 5 // which item an episode plays, when the trainer weights a level's items
	PurposeReplay     Purpose = 6 // which remembered program a replayed episode plays
	PurposeReplayTask Purpose = 7 // the operands of a replayed episode
	PurposeMinibatch  Purpose = 8 // PPO's order of an update's episodes in an epoch (cpu/ppo.go)
)

// Key is the 64-bit Philox key derived from the user's -seed.
type Key [2]uint32

// NewKey turns a seed into a key. Seeds that differ in any bit give
// different keys; the mixing is splitmix64 so that small seeds (0, 1, 2) are
// not close in key space.
func NewKey(seed uint64) Key {
	z := seed + 0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	z ^= z >> 31
	return Key{uint32(z), uint32(z >> 32)}
}

// Block returns four random words for (round, episode, step, purpose).
// round is the update number for training (or an evaluation's own counter),
// episode the index of the episode inside its batch, step the token position.
func (k Key) Block(round uint32, episode uint32, step uint32, p Purpose) [4]uint32 {
	return Philox4x32([4]uint32{round, episode, step, uint32(p)}, k)
}

// Uniform returns a float32 in [0, 1) with 24 random bits for (round, episode,
// step, purpose): exactly representable, never 1.
func (k Key) Uniform(round, episode, step uint32, p Purpose) float32 {
	w := k.Block(round, episode, step, p)
	return float32(w[0]>>8) * (1.0 / (1 << 24))
}

// Below maps a random word to [0, n) by a 32×32→64 multiply (Lemire's method
// without rejection); for n ≤ 10 the bias is below 3e-9 and the result is the
// same on every device.
func Below(w uint32, n uint32) uint32 {
	return uint32((uint64(w) * uint64(n)) >> 32)
}
