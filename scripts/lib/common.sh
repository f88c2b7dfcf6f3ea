# Shared shell helpers for scripts/*. Source it; it defines ROOT and a few messages.
# shellcheck shell=bash

# The repository root, found from this file's own path so scripts work from any cwd.
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
# shellcheck disable=SC2034  # used by the scripts that source this file
VENV="$ROOT/.venv"

# Messages go to stderr, so `scripts/run ... > file` keeps only the assistant's output.
# SCRIPT_NAME prefixes every line ("setup: ...", "test: ...").
SCRIPT_NAME="${SCRIPT_NAME:-$(basename "$0")}"

say() { printf '%s: %s\n' "$SCRIPT_NAME" "$*" >&2; }
warn() { printf '%s: warning: %s\n' "$SCRIPT_NAME" "$*" >&2; }
die() {
    printf '%s: error: %s\n' "$SCRIPT_NAME" "$*" >&2
    exit 1
}
