// Package exprtask is the expr task, calc's machine on env/expr's family of
// expressions that the context shows, as a plug-in: importing it registers
// "expr" (task.Register) and its spec editor. Its spec is ExprSpec.
package exprtask
