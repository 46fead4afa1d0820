package trainer

// AsksGreedySolved reports whether solvedGreedily asks e for GreedySolved
// (e is a greedySolver), for the engines' external test below.
func AsksGreedySolved(e Engine) bool {
	_, ok := e.(greedySolver)
	return ok
}
