#!/usr/bin/env bash
# Rerun locklint on the real-code corpus and print finding counts per
# analyzer per repository, next to the counts recorded in corpus.tsv.
#
# usage: run.sh SNAPSHOT_DIR LOCKLINT_BINARY [CORPUS_TSV]
#
# SNAPSHOT_DIR holds one checkout per repository, named owner+name (or
# owner/name), each at the commit recorded in the TSV. The packages column is
# a space-separated list of moddir:pattern items (moddir relative to the
# checkout). A module directory without go.mod gets a throwaway one
# (go mod init + go mod tidy), as when the corpus was recorded; write
# moddir=modpath:pattern when the code imports its own packages under a
# module path that must be used for that go.mod.
#
# Module downloads go through the Go toolchain's configured GOPROXY; set
# GOFLAGS or GOPROXY in the environment as needed. No network address is
# configured here.
#
# Output: one line per repository
#   repo  commit-ok|commit-MISMATCH  now: a=1,b=2  recorded: a=1,b=2  same|DIFF|CRASH
# and exit status 1 when any repository differs from its recorded counts
# or when locklint crashed on it (a panic or an internal error on stderr).
# With FINDINGS=FILE in the environment, each finding is also appended to
# FILE as "repo<TAB>analyzer<TAB>position<TAB>message", for scoring the
# findings site by site against the labels.
set -u
snap=${1:?snapshot dir}
bin=${2:?locklint binary}
tsv=${3:-$(dirname "$0")/corpus.tsv}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
command -v python3 >/dev/null || { echo "python3 is needed to read -json output" >&2; exit 2; }

count() { # reads locklint -json output (one object per package list) on stdin
	REPO="$1" python3 -c '
import json, os, sys, collections
findings = os.environ.get("FINDINGS")
out = open(findings, "a") if findings else None
txt = sys.stdin.read(); dec = json.JSONDecoder(); i = 0; c = collections.Counter(); errs = 0; seen = set()
while i < len(txt):
    while i < len(txt) and txt[i].isspace(): i += 1
    if i >= len(txt): break
    try: obj, i = dec.raw_decode(txt, i)
    except ValueError: break
    for pkg, an in obj.items():
        for a, v in an.items():
            if isinstance(v, list):
                for d in v:  # a package and its test variant report the same position
                    if (a, d.get("posn")) not in seen:
                        seen.add((a, d.get("posn"))); c[a] += 1
                        if out:
                            out.write("%s\t%s\t%s\t%s\n" % (os.environ["REPO"], a, d.get("posn"), d.get("message")))
            elif isinstance(v, dict) and "error" in v: errs += 1
s = ",".join("%s=%d" % (k, c[k]) for k in sorted(c)) or "-"
print(s, errs)
'
}

status=0
while IFS=$'\t' read -r repo commit client packages sites findings rest; do
	case "$repo" in ''|'#'*) continue ;; esac
	dir="$snap/${repo/\//+}"
	[ -d "$dir" ] || dir="$snap/$repo"
	if [ ! -d "$dir" ]; then
		printf '%s\tMISSING\n' "$repo"; status=1; continue
	fi
	cstate=commit-unknown
	if head=$(git -C "$dir" rev-parse HEAD 2>/dev/null); then
		if [ "$head" = "$commit" ]; then cstate=commit-ok; else cstate=commit-MISMATCH; fi
	fi
	out=$(mktemp)
	errf=$(mktemp)
	# one locklint run per item: file patterns from different directories
	# cannot share a run
	for item in $packages; do
		case "$item" in *:*) ;; *) item=".:$item" ;; esac
		m=${item%%:*}; p=${item#*:}
		(
			md=${m%%=*}; modpath="corpus.invalid/${repo,,}"
			[ "$md" = "$m" ] || modpath=${m#*=}
			cd "$dir/$md" || exit 0
			if [ ! -f go.mod ]; then
				go mod init "$modpath" >/dev/null 2>&1
				GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1
			fi
			GOFLAGS=-mod=mod timeout 600 "$bin" -json "$p" 2>>"$errf"
		) </dev/null >>"$out"
	done
	read -r now errs < <(count "$repo" <"$out")
	rm -f "$out"
	same=same
	[ "$now" = "$findings" ] || { same=DIFF; status=1; }
	# A crash loses every finding of the run it ends: never a count.
	if grep -q -e '^panic: ' -e 'internal error' "$errf"; then
		same=CRASH; status=1
	fi
	rm -f "$errf"
	printf '%s\t%s\tnow: %s\trecorded: %s\t%s\t(packages with errors: %s)\n' \
		"$repo" "$cstate" "$now" "$findings" "$same" "$errs"
done <"$tsv"
exit $status
