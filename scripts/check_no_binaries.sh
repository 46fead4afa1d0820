#!/usr/bin/env bash
# check_no_binaries.sh: fails when a tracked file is an executable binary (an
# ELF, Mach-O, PE or WebAssembly file, or an ar archive such as a Go .a), or
# when a tracked file has the executable bit without a #! line. No binary is
# ever committed: a built tool is rebuilt by the script that needs it.
# Usage: scripts/check_no_binaries.sh [REPO]   (default: this repository)
#        scripts/check_no_binaries.sh -selftest (plants a binary in a scratch
#        repository and checks that the check fails on it)
set -euo pipefail

check() {
	local repo=$1 bad=0 mode path magic
	while IFS=$'\t' read -r meta path; do
		mode=${meta%% *}
		[ -f "$repo/$path" ] || continue
		magic=$(head -c 8 "$repo/$path" | od -An -tx1 | tr -d ' \n')
		case $magic in
		7f454c46*) echo "tracked ELF binary: $path"; bad=1 ;;
		cffaedfe* | cefaedfe* | feedfacf* | feedface* | cafebabe*) echo "tracked Mach-O binary: $path"; bad=1 ;;
		4d5a*) echo "tracked PE (Windows) binary: $path"; bad=1 ;;
		0061736d*) echo "tracked WebAssembly binary: $path"; bad=1 ;;
		213c617263683e0a) echo "tracked ar archive: $path"; bad=1 ;;
		*)
			if [ "$mode" = 100755 ] && [ "${magic:0:4}" != 2321 ]; then
				echo "tracked executable without a #! line: $path"
				bad=1
			fi
			;;
		esac
	done < <(git -C "$repo" ls-files -s)
	return $bad
}

if [ "${1:-}" = -selftest ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	git -C "$dir" init -q
	printf '#!/bin/sh\n' >"$dir/ok.sh" && chmod +x "$dir/ok.sh"
	git -C "$dir" add ok.sh
	check "$dir" >/dev/null || { echo "selftest: a clean repository was refused"; exit 1; }
	cp "$(type -P true)" "$dir/tool" && git -C "$dir" add tool
	if check "$dir" >/dev/null; then echo "selftest: a tracked ELF binary was not found"; exit 1; fi
	git -C "$dir" rm -q --cached tool
	printf 'plain\n' >"$dir/x" && chmod +x "$dir/x" && git -C "$dir" add x
	if check "$dir" >/dev/null; then echo "selftest: an executable without #! was not found"; exit 1; fi
	echo "selftest ok"
	exit 0
fi
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}
check "$repo" && echo "no tracked binaries"
