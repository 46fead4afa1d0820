// Package taskkit is what the built-in task plug-ins share beneath their
// public API: stepping rows of episodes, calc's machine as an Env (expr runs
// on it too), the instance conversions, the partial credit's bounds.
package taskkit
