// Package docs holds tests that check the documentation against the code:
// README's import graph against `go list`. It has no code of its own.
package docs
