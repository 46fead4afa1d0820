// Package checkpoint reads and writes simdrl's checkpoint files: safetensors
// files of float32 tensors under PyTorch's state_dict names (and F64, I32 and
// I64 tensors for a run's state that grows with its task), with string
// metadata, so that PyTorch's own tools (and a reader written with the Python
// standard library) load them.
//
// The format (https://github.com/huggingface/safetensors): an 8-byte
// little-endian uint64 N, then N bytes of JSON header
//
//	{"__metadata__": {"key": "value", ...},
//	 "<name>": {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, ...}
//
// then the data buffer, the tensors packed back to back in little-endian
// order, their offsets relative to the buffer's start.
//
// Encode writes the header keys in the order the tensors are given (metadata
// first, its keys sorted) and pads the header with spaces to a multiple of 8
// bytes, so the data starts aligned. Decode is strict (see Decode) and never
// panics; it returns the tensors in the order of their data, so a file that
// Encode wrote decodes to the tensors in the order they were given.
//
// The package owns the file format only: which tensors and metadata keys a
// checkpoint holds (the model's names, Adam's moments, the config, the
// training state) is trainer's mapping (trainer.Trainer's Checkpoint,
// Restore and LoadWeights, trainer.CheckpointConfig; the tensors' names and
// checks in internal/enginekit). It imports nothing of
// the project but internal/atomicfile, which WriteFile writes through.
package checkpoint
