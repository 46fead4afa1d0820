package task

// HeldOutOf is the share IsHeldOut holds out: one item in HeldOutOf.
const HeldOutOf = 5

// IsHeldOut splits a task's items once and for all into training and
// held-out ones, as calc splits its digit tuples: it reports whether item
// (an index that names one instance of a level: its digits read as a
// number, say) is held out, one item in about HeldOutOf, by a hash of salt
// and item. The salt is the task's own: a hash of the level's name (FNV-1a,
// hash/fnv) keeps a level's split when the curriculum is reordered.
//
// A task that holds instances out draws its item from the stream until
// IsHeldOut(salt, item) == (split == HeldOut), and says HoldsOut() true:
// the runs then train on the training items only and the evaluations
// report the held-out ones (docs/tasks.md, "Your own task").
func IsHeldOut(salt, item uint64) bool {
	// SplitMix64's finalizer: every bit of salt and item moves the result.
	z := salt ^ (item * 0x9E3779B97F4A7C15)
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	z ^= z >> 31
	return (z>>32)*HeldOutOf>>32 == 0
}
