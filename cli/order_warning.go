package cli

import (
	"fmt"
	"io"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// warnOrder warns when a run takes t's context as a bag and t says its
// instances depend on the order of their context tokens
// (task.OrderSensitive): the mean of their embeddings loses that order, and
// such a run stays near chance without any error.
func warnOrder(w io.Writer, cfg trainer.Config, t task.Task) {
	if o, ok := t.(task.OrderSensitive); ok && o.OrderSensitive() && cfg.Context != trainer.ContextRead {
		fmt.Fprintf(w, "simdrl: warning: the %s task's instances depend on the order of their context tokens, which -context bag averages away; -context read keeps the order\n", t.Name())
	}
}
