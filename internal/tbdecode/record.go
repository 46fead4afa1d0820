package tbdecode

import (
	"encoding/binary"
	"fmt"
	"os"
)

// crc32c is CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), bit by
// bit.
func crc32c(b []byte) uint32 {
	c := ^uint32(0)
	for _, x := range b {
		c ^= uint32(x)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0x82F63B78
			} else {
				c >>= 1
			}
		}
	}
	return ^c
}

// masked is TFRecord's masked checksum of b.
func masked(b []byte) uint32 {
	c := crc32c(b)
	return (c>>15 | c<<17) + 0xa282ead8
}

// Records splits a TFRecord file into its records' data, checking both
// checksums of each: uint64 length, uint32 masked CRC of the length, data,
// uint32 masked CRC of the data, all little-endian.
func Records(b []byte) ([][]byte, error) {
	var out [][]byte
	for off := 0; off < len(b); {
		if len(b)-off < 12 {
			return nil, fmt.Errorf("offset %d: %d bytes left, a record header needs 12", off, len(b)-off)
		}
		head := b[off : off+8]
		if got, want := binary.LittleEndian.Uint32(b[off+8:]), masked(head); got != want {
			return nil, fmt.Errorf("offset %d: length checksum %#x, want %#x", off, got, want)
		}
		n := binary.LittleEndian.Uint64(head)
		off += 12
		if n > uint64(len(b)-off) || uint64(len(b)-off)-n < 4 {
			return nil, fmt.Errorf("offset %d: a record of %d bytes and its checksum overrun the file", off, n)
		}
		data := b[off : off+int(n)]
		if got, want := binary.LittleEndian.Uint32(b[off+int(n):]), masked(data); got != want {
			return nil, fmt.Errorf("offset %d: data checksum %#x, want %#x", off, got, want)
		}
		out = append(out, data)
		off += int(n) + 4
	}
	return out, nil
}

// ReadFile decodes every event of an events file.
func ReadFile(path string) ([]Event, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	recs, err := Records(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var events []Event
	for i, r := range recs {
		e, err := DecodeEvent(r)
		if err != nil {
			return nil, fmt.Errorf("%s: record %d: %w", path, i, err)
		}
		events = append(events, e)
	}
	return events, nil
}
