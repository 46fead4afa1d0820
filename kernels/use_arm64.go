//go:build !purego

package kernels

// useNEON installs the NEON kernels into s. Families not yet written in
// assembly keep their generic twins.
func useNEON(s *implementation) {}
