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
// well-formed tape of leaves leaves and cells cells: every cell consumed
// once, one APPLY per operator, and ANS.
func Shortest(cells, leaves int) int { return cells + leaves }
