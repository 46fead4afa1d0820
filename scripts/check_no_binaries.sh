#!/usr/bin/env bash
# check_no_binaries.sh: fails when a tracked file is an executable binary (an
# ELF, Mach-O, PE or WebAssembly file, or an ar archive such as a Go .a), or
# when a tracked file has the executable bit without a #! line. No binary is
# ever committed: a built tool is rebuilt by the script that needs it.
# Usage: scripts/check_no_binaries.sh [REPO]   (default: this repository)
#        scripts/check_no_binaries.sh -selftest (plants a binary in a scratch
#        repository and checks that the check fails on it)
set -euo pipefail

# check REPO: one perl reads the first bytes of every tracked file (a process
# per file took two minutes on a loaded machine).
check() {
	git -C "$1" ls-files -s -z | (cd "$1" && perl -0 -ne '
		chomp;
		my ($meta, $path) = split /\t/, $_, 2;
		my ($mode) = split / /, $meta;
		open(my $f, "<:raw", $path) or next;
		read($f, my $m, 8);
		close($f);
		my $kind =
		    $m =~ /^\x7fELF/                                    ? "ELF binary"
		  : $m =~ /^(\xcf\xfa\xed\xfe|\xce\xfa\xed\xfe|\xfe\xed\xfa[\xce\xcf]|\xca\xfe\xba\xbe)/ ? "Mach-O binary"
		  : $m =~ /^MZ/                                          ? "PE (Windows) binary"
		  : $m =~ /^\0asm/                                       ? "WebAssembly binary"
		  : $m =~ /^!<arch>\n/                                   ? "ar archive"
		  : ($mode eq "100755" && $m !~ /^#!/)                   ? "executable without a #! line"
		  : "";
		if ($kind ne "") { print "tracked $kind: $path\n"; $bad = 1 }
		END { exit($bad ? 1 : 0) }
	')
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
