// Package testsize says which form a test with a long form runs. A test
// that needs minutes (a model learning a two-level curriculum, a search
// over every expression of five leaves) runs a smaller variant under plain
// `go test ./...`, so that the README's command stays within minutes on a
// 2-core machine, and its full form where CI asks: SIMDRL_TEST_LONG=1
// (.ci/run's full run sets it). -short may make such a test smaller still.
package testsize

import "os"

// Long reports that SIMDRL_TEST_LONG asks for the long forms ("1").
func Long() bool { return os.Getenv("SIMDRL_TEST_LONG") == "1" }
