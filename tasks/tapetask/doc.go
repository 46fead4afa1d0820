// Package tapetask is the tape task, env/tape's machine and family, as a
// plug-in: importing it registers "tape" (task.Register). Its spec is
// TapeSpec.
package tapetask
