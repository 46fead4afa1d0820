// Package docs holds tests that check the documentation against the code:
// docs/architecture.md's import graph against `go list`, and the links
// between the Markdown pages. It has no code of its own.
package docs
