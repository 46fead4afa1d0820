package tape

// ShuntingYard is Dijkstra's shunting-yard as a fixed table from the
// observation (the kind under the head × the operator stack's top) to a
// tool: a digit is pushed, an operator first applies the pending ones that
// bind at least as tightly, a ")" applies down to its "(" and pops it, the
// end applies everything and answers. It solves every well-formed tape of
// any size within the stacks' bounds, in Shortest steps: the rule a policy
// of bounded memory can learn, since it needs nothing but the observation.
func ShuntingYard(obs int32) Tool {
	head, top := obs/topKinds, obs%topKinds
	const digit, open, close, end = 0, 4, 5, 6
	const empty, paren = 0, 4
	switch head {
	case digit:
		return PUSHV
	case open:
		return PUSHOP
	case close:
		if top == paren {
			return POPPAREN
		}
		return APPLY
	case end:
		if top == empty {
			return ANS
		}
		return APPLY
	}
	// an operator: apply a pending one of the same or higher precedence
	// (top−1 and head−1 are 0 +, 1 −, 2 ×)
	if top == empty || top == paren {
		return PUSHOP
	}
	if (top-1)/2 >= (head-1)/2 {
		return APPLY
	}
	return PUSHOP
}

// Shortest is the length of the shortest program that answers a
// well-formed tape of leaves leaves and cells cells without functions:
// every cell consumed once, one APPLY per operator, and ANS. With functions
// it is cells + operators + 1 (Member.Shortest): a function's ")" is
// consumed by the KEEP or OTHER that resolves it.
func Shortest(cells, leaves int) int { return cells + leaves }

// ShuntingYardBranching is ShuntingYard on the branching machine's
// observation (Variant.Branching): a function is pushed as "(" is, a ","
// applies the pending operators down to its function and is consumed, and
// a ")" with a function on top resolves it by the comparison observed:
// abs keeps a value ≥ 0 and negates one below; max keeps the right argument
// unless left > right, min unless left < right. One fixed table still
// solves every size.
func ShuntingYardBranching(obs int32) Tool {
	head, top := obs/branchTopKinds, obs%branchTopKinds
	const comma, closed = headKinds + 3, 5
	if top < topKinds && head < headKinds {
		return ShuntingYard(head*topKinds + top)
	}
	function := top >= topKinds
	switch {
	case head == comma && function, head >= headKinds: // a function or the ",": push or consume
		if head == comma && !function {
			return APPLY // an operator on top (a "(" cannot be)
		}
		return PUSHOP
	case head == closed && function:
		f, s := (top-topKinds)/numSigns, (top-topKinds)%numSigns-1
		if f == 0 && s < 0 || f == 1 && s > 0 || f == 2 && s < 0 {
			return OTHER
		}
		return KEEP
	}
	// a function on top acts as "(" does: below it nothing is pending
	return ShuntingYard(head*topKinds + 4)
}
