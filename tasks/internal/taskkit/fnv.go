package taskkit

// FNV32 is the 32-bit FNV-1a hash of s: the expr and tape families hash a
// member's spelling with it to order their subsets.
func FNV32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}
