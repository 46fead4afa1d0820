// Package golden reads the PyTorch golden cases (see testdata/golden/README.md).
// Tests take the folder from SIMDRL_GOLDEN_DIR when it is set, else the
// project's own copy under testdata/golden; the cases with observations from
// SIMDRL_GOLDEN_OBS_DIR, else testdata/golden-obs (ObsDir). Nothing here
// assumes a case count, a batch size or a seed.
//
// It is for tests only (no non-test package imports it) and imports nothing
// of the project but gru, for the layout the golden model describes.
package golden
