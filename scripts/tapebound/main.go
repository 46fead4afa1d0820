// Command tapebound prints the open-loop bound of the tape task's branching
// family (tape.OpenLoop): per size, the mean over its members of the most a
// policy blind to the comparisons can solve, on uniform operand draws. It is
// the comparison row that says what observing is worth (docs/results.md).
//
//	go run ./scripts/tapebound -draws 128 -sizes 2,3,4,5,6,8,12
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/env/tape"
)

func main() {
	draws := flag.Int("draws", 128, "uniform operand tuples per member")
	sizes := flag.String("sizes", "2,3,4,5,6,8,12", "family sizes (leaves)")
	flag.Parse()
	fmt.Println("| leaves | members | enumerated (≤ 12 functions) | open-loop bound (mean) | members a blind policy solves always |")
	fmt.Println("|---|---|---|---|---|")
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			fmt.Fprintln(os.Stderr, "tapebound: -sizes:", err)
			os.Exit(2)
		}
		members, err := tape.FamilyOf(n, true)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tapebound:", err)
			os.Exit(2)
		}
		r := rand.New(rand.NewPCG(uint64(n), 38))
		ds := make([][]int32, *draws)
		for i := range ds {
			ds[i] = make([]int32, n)
			for k := range ds[i] {
				ds[i][k] = int32(r.IntN(10))
			}
		}
		sum, done, always := 0.0, 0, 0
		for i := range members {
			share, ok := tape.OpenLoop(&members[i], ds)
			if !ok {
				continue
			}
			sum += share
			done++
			if share == 1 {
				always++
			}
		}
		mean := "—"
		if done > 0 {
			mean = fmt.Sprintf("%.3f", sum/float64(done))
		}
		fmt.Printf("| %d | %d | %d | %s | %d |\n", n, len(members), done, mean, always)
	}
}
