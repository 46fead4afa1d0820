package tbevents

import (
	"encoding/binary"
	"math"
)

// FileVersion is the first event of every file: the format TensorBoard
// expects.
const FileVersion = "brain.Event:2"

// Scalar is one tagged value of a step ("eval/solve_rate/T0").
type Scalar struct {
	Tag   string
	Value float32
}

// The protobuf wire types and the fields written (tensorflow/core/util/
// event.proto and tensorflow/core/framework/summary.proto).
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5

	eventWallTime    = 1 // double
	eventStep        = 2 // int64
	eventFileVersion = 3 // string
	eventSummary     = 5 // Summary
	summaryValue     = 1 // repeated Summary.Value
	valueTag         = 1 // string
	valueSimpleValue = 2 // float
)

// appendKey appends a field's key: its number and wire type.
func appendKey(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field<<3|wire))
}

// appendBytes appends a length-delimited field.
func appendBytes(b []byte, field int, v []byte) []byte {
	b = appendKey(b, field, wireBytes)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// appendHeader appends an Event's wall time (seconds since the epoch) and
// step.
func appendHeader(b []byte, wallTime float64, step int64) []byte {
	b = appendKey(b, eventWallTime, wireFixed64)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(wallTime))
	b = appendKey(b, eventStep, wireVarint)
	return binary.AppendUvarint(b, uint64(step))
}

// versionEvent is the encoded Event that opens a file: step 0 and
// file_version.
func versionEvent(wallTime float64) []byte {
	b := appendHeader(nil, wallTime, 0)
	return appendBytes(b, eventFileVersion, []byte(FileVersion))
}

// scalarsEvent is the encoded Event of a step's scalars: one Summary with a
// Value (tag, simple_value) each.
func scalarsEvent(wallTime float64, step int64, scalars []Scalar) []byte {
	var summary, value []byte
	for _, s := range scalars {
		value = appendBytes(value[:0], valueTag, []byte(s.Tag))
		value = appendKey(value, valueSimpleValue, wireFixed32)
		value = binary.LittleEndian.AppendUint32(value, math.Float32bits(s.Value))
		summary = appendBytes(summary, summaryValue, value)
	}
	return appendBytes(appendHeader(nil, wallTime, step), eventSummary, summary)
}
