// Package onetask holds the test of a plug-in main of one line,
// os.Exit(cli.Main(os.Args[1:])), in a program whose registry holds one
// task (calc, not the recipe's seed): its test binary imports package cli
// and that task only, as such a program does.
package onetask
