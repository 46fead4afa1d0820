// Command policyserver serves a trained simdrl policy over HTTP (the
// standard library's net/http and package policy; docs/policy.md):
//
//	go run ./examples/policyserver -load model.safetensors -addr localhost:8080
//
//	GET  /      the task, its levels, tokens and rollout length
//	POST /act   {"level":0,"context":[3,4],"observations":[…],"sample":false,"seed":0}
//	            → the tokens of one episode, step by step, with each step's value
//	POST /play  {"level":0,"first":0,"count":4,"seed":1}
//	            → whole episodes of instances the task draws, played with its own Env
package main

import (
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"

	"github.com/simdrl/simdrl/policy"
	_ "github.com/simdrl/simdrl/tasks/builtin" // the built-in tasks: a checkpoint names its own
)

func main() {
	load := flag.String("load", "", "the checkpoint to serve (simdrl -save FILE)")
	addr := flag.String("addr", "localhost:8080", "the address to listen on")
	flag.Parse()
	if *load == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "policyserver: give -load FILE (and optionally -addr HOST:PORT)")
		os.Exit(2)
	}
	p, err := policy.Load(*load)
	if err != nil {
		fmt.Fprintf(os.Stderr, "policyserver: %s: %v\n", *load, err)
		os.Exit(2)
	}
	log.Printf("serving the %s task's policy from %s on http://%s", p.Task().Name(), *load, *addr)
	log.Fatal(http.ListenAndServe(*addr, newServer(p)))
}
