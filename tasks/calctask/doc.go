// Package calctask is the calc task, the calculator of env/calc on a
// curriculum of expressions, as a plug-in: importing it registers "calc"
// (task.Register) and its spec editor (task.RegisterSpecEditor: the
// command's -levels and -partial-credit). Its spec is CalcSpec.
package calctask
