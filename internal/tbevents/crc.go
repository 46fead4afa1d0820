package tbevents

import "hash/crc32"

// castagnoli is CRC-32C's table, the checksum TFRecord uses.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maskedCRC is TFRecord's checksum of b: CRC-32C rotated right by 15 bits
// plus a constant, so that a checksum of data holding checksums stays
// well-distributed.
func maskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, castagnoli)
	return (c>>15 | c<<17) + 0xa282ead8
}
