package enginekit

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
)

// HashParams hashes parameters as little-endian float32 in state_dict order:
// equal hashes mean bit-identical models, on any engine.
func HashParams(params []float32) string {
	h := sha256.New()
	var buf [4]byte
	for _, p := range params {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(p))
		h.Write(buf[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}
