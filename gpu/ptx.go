package gpu

import (
	"embed"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/gpu/internal/abi"
)

// The kernels, compiled by gen.sh (go generate) from kernels/*.cu.
//
//go:embed ptx/*.ptx
var ptxFiles embed.FS

// modules lists every PTX module and the kernels the Go code launches from
// it: the ABI table's (gpu/internal/abi).
var modules = abi.Modules()

// ptxInfo is what the loader needs to know about a PTX module.
type ptxInfo struct {
	Version string   // PTX ISA, e.g. "7.8"
	Target  string   // e.g. "sm_80"
	Entries []string // .entry names, sorted
	// Params gives each entry's parameter sizes in order, one byte per
	// parameter: '4' (.u32, .s32, .f32, .b32) or '8' (.u64, .s64, .f64, .b64).
	Params map[string]string
}

var (
	reVersion = regexp.MustCompile(`(?m)^\s*\.version\s+(\d+)\.(\d+)\s*$`)
	reTarget  = regexp.MustCompile(`(?m)^\s*\.target\s+([a-z0-9_]+)`)
	reEntry   = regexp.MustCompile(`(?m)^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$][A-Za-z0-9_$]*)\s*\(([^)]*)\)`)
	reParam   = regexp.MustCompile(`\.param\s+\.[busf](32|64)\s`)
)

// parsePTX reads the .version, .target and .entry lines of a PTX text.
func parsePTX(src string) (ptxInfo, error) {
	var info ptxInfo
	v := reVersion.FindStringSubmatch(src)
	if v == nil {
		return info, fmt.Errorf("no .version directive")
	}
	info.Version = v[1] + "." + v[2]
	t := reTarget.FindStringSubmatch(src)
	if t == nil {
		return info, fmt.Errorf("no .target directive")
	}
	info.Target = t[1]
	info.Params = map[string]string{}
	for _, m := range reEntry.FindAllStringSubmatch(src, -1) {
		info.Entries = append(info.Entries, m[1])
		sig := ""
		for _, p := range reParam.FindAllStringSubmatch(m[2], -1) {
			sig += map[string]string{"32": "4", "64": "8"}[p[1]]
		}
		if n := strings.Count(m[2], ".param"); n != len(sig) {
			return info, fmt.Errorf(".entry %s: %d parameters, %d of them 4 or 8 bytes wide", m[1], n, len(sig))
		}
		info.Params[m[1]] = sig
	}
	sort.Strings(info.Entries)
	return info, nil
}

// loadPTX returns module name's embedded PTX and what it declares.
func loadPTX(name string) (string, ptxInfo, error) {
	b, err := ptxFiles.ReadFile("ptx/" + name + ".ptx")
	if err != nil {
		return "", ptxInfo{}, fmt.Errorf("gpu: embedded PTX %s missing: %v (run go generate ./gpu/)", name, err)
	}
	info, err := parsePTX(string(b))
	if err != nil {
		return "", ptxInfo{}, fmt.Errorf("gpu: embedded PTX %s: %v", name, err)
	}
	return string(b), info, nil
}

// ptxDriverNeeded is the oldest CUDA driver (as cuDriverGetVersion reports
// it, 1000·major + 10·minor) whose JIT accepts PTX ISA version v: ISA 7.x
// came with CUDA 11.x, ISA 8.0–8.5 with CUDA 12.0–12.5, 8.6 with 12.7,
// 8.7 with 12.8, 8.8 with 12.9.
func ptxDriverNeeded(v string) (int, error) {
	maj, min, ok := strings.Cut(v, ".")
	if !ok {
		return 0, fmt.Errorf("bad PTX ISA version %q", v)
	}
	M, err1 := strconv.Atoi(maj)
	m, err2 := strconv.Atoi(min)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad PTX ISA version %q", v)
	}
	switch {
	case M == 7:
		return 11000 + 10*m, nil
	case M == 8 && m <= 5:
		return 12000 + 10*m, nil
	case M == 8 && m <= 8:
		return 12000 + 10*(m+1), nil
	}
	return 0, fmt.Errorf("PTX ISA %s is newer than this loader knows", v)
}

// driverString spells a cuDriverGetVersion number: 12040 → "12.4".
func driverString(v int) string { return fmt.Sprintf("%d.%d", v/1000, (v%1000)/10) }
