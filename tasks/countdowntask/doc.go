// Package countdowntask is Countdown and the 24 Game as built-in tasks, the
// worlds of env/countdown and env/game24 as plug-ins: importing it
// registers "countdown3", "countdown4" and "game24" (task.Register). Each
// is written as a step function (task.Stepwise): the policy searches inside
// its episode, combining two pool slots with an operation or undoing the
// last combination, and is paid 1 when every number has been combined into
// the target. Its spec is "budget=N" (the steps an episode has).
package countdowntask
