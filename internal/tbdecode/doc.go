// Package tbdecode reads TensorBoard event files, for tests only. It is
// written from the formats' specifications, sharing nothing with the
// writer (internal/tbevents) so that one's mistake is not the other's: its
// own bitwise CRC-32C, the TFRecord framing (record.go) and a generic
// protobuf wire-format parser (wire.go) under the Event fields TensorBoard
// reads for scalars (event.go).
//
// It imports nothing of the project (only the standard library).
package tbdecode
