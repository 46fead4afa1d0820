// Package seedtask is the seed task, the reference script's tool
// environment (env/seed) kept bit-exact, as a plug-in: importing it
// registers "seed" (task.Register).
package seedtask
