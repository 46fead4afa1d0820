package enginekit

import "fmt"

// ShapeError is a checkpoint tensor whose shape is not this model's: the
// file holds a model of another size. trainer.ShapeError names it for
// users.
type ShapeError struct {
	Tensor    string
	Got, Want []int
}

func (e *ShapeError) Error() string {
	return fmt.Sprintf("checkpoint tensor %s has shape %v, this model needs %v", e.Tensor, e.Got, e.Want)
}
