package tbdecode

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCRC32CCheckValue: the bitwise CRC-32C gives the catalogued check
// value of "123456789" (RFC 3720's CRC32C).
func TestCRC32CCheckValue(t *testing.T) {
	require.Equal(t, uint32(0xE3069283), crc32c([]byte("123456789")))
}
