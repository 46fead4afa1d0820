// Package tbevents writes TensorBoard event files of scalars (-tensorboard),
// in pure Go: TFRecord framing (record.go: a length, data, and masked
// CRC-32C checksums, crc.go) around hand-encoded Event protobufs (event.go:
// the wall time, the step, and a Summary of tagged simple values). A
// Writer (writer.go) holds one file; TensorBoard merges every file of a
// directory into one run, so a resumed run writes a new file beside the
// old one and its steps continue.
//
// It imports nothing of the project (only the standard library).
package tbevents
