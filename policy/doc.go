// Package policy runs a trained simdrl model from a Go program: load a
// checkpoint (Load), then either step it yourself, one token at a time
// (Session: its own hidden state per episode, greedy or sampled, with the
// value and the distribution when asked), or play whole episodes of its
// task with the task's own Env, batched across goroutines (Play, Evaluate).
//
// A Policy is read-only once loaded and safe for concurrent use; every
// episode's state lives in a Session (pooled: Policy.Session and
// Session.Release) or a player that Play borrows, so a step allocates
// nothing. The arithmetic is the CPU engine's (package gru's workspace and
// the kernels), row for row: greedy programs, solve rates and mean rewards
// equal those of `simdrl -load FILE -eval-only` on the same checkpoint, and
// a sampled episode draws the same tokens as training's episode of that
// round and number.
package policy
