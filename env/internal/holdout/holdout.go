// Package holdout is the rule the expr and tape families share for which
// members of a size a split holds out: a fifth of them, those whose key
// hashes lowest, so that the choice is fixed by the members themselves and
// not by the sizes or splits asked for before.
package holdout

import (
	"cmp"
	"slices"
)

// Count is how many of a size's m members are held out: m/5 rounded, at
// least 1 once m ≥ 3 (so that every such size is evaluated and keeps two
// to train on).
func Count(m int) int {
	if m < 3 {
		return 0
	}
	return max(1, (m+2)/5)
}

// Lowest is the indices, in ascending order of Hash (ties: the lower
// index), of the Count(len(keys)) members held out, keys[i] being member
// i's key.
func Lowest(keys []string) []int {
	order := make([]int, len(keys))
	hash := make([]uint64, len(keys))
	for i, k := range keys {
		order[i], hash[i] = i, Hash(k)
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(hash[a], hash[b]), cmp.Compare(a, b)) })
	return order[:Count(len(keys))]
}

// Hash is the 64-bit FNV-1a hash of s, the order Lowest holds out by.
func Hash(s string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}
