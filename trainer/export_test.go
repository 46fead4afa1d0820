package trainer

// AsksGreedySolved reports whether solvedGreedily asks e for GreedySolved
// (e is a greedySolver), for the external test engines_solver_test.go.
func AsksGreedySolved(e Engine) bool {
	_, ok := e.(greedySolver)
	return ok
}
