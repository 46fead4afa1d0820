package tbevents

import (
	"hash/crc32"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMaskedCRC: the checksum is CRC-32C (the catalogued check value of
// "123456789"), rotated right by 15 bits plus 0xa282ead8 as TFRecord's
// specification masks it.
func TestMaskedCRC(t *testing.T) {
	data := []byte("123456789")
	check := uint32(0xE3069283)
	require.Equal(t, check, crc32.Checksum(data, castagnoli))
	require.Equal(t, (check>>15|check<<17)+0xa282ead8, maskedCRC(data))
}
