package tbevents

import "encoding/binary"

// appendRecord appends data to dst as one TFRecord: its length as a
// little-endian uint64, the masked CRC-32C of those 8 bytes, the data, and
// the masked CRC-32C of the data (both checksums little-endian uint32).
func appendRecord(dst, data []byte) []byte {
	start := len(dst)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(data)))
	dst = binary.LittleEndian.AppendUint32(dst, maskedCRC(dst[start:]))
	dst = append(dst, data...)
	return binary.LittleEndian.AppendUint32(dst, maskedCRC(data))
}
