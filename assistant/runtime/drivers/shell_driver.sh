# Runs shell code for the host in one long-lived bash, so the working directory,
# variables and functions persist between runs.
#
# Requests arrive as "TOKEN PATH" lines on the pipe whose fd is $1 (or `--once PATH
# [STATE]` runs one file and exits with its status: a what-if run, in the state that
# shell_state.sh wrote from the live shell); the code in PATH is
# sourced, so a syntax error fails only that run. After each run the token, the
# exit status and ";" go to stdout and stderr: that is how the host knows the run
# is over.
#
# SIGINT to the process group kills the running command. The INT trap then
# returns from the sourced code (which also breaks out of a `read`), and a DEBUG
# trap unwinds any functions still on the stack: with extdebug, a DEBUG trap
# status of 2 makes bash return from the current function or sourced file. The
# shell itself survives, with its state.

# xtrace (set -x) lasts until the end of the run that turned it on, so the driver's
# own commands never show up in the output.
__rt_run() {
  __rt_stop=0
  trap '__rt_on_int "${FUNCNAME[0]-}" && return 130' INT
  source "$1"
  # Also keeps `source` from being the last command: bash cannot unwind a function ending in it.
  { __rt_status=$?; set +x; } 2>/dev/null
}

# Called by the INT trap with the function it interrupted; succeeds when the trap
# should `return` (that is, when user code was interrupted).
__rt_on_int() {
  case $1 in
    '') return 1 ;;
    __rt_run) __rt_stop=1; return 1 ;;
  esac
  __rt_stop=1
  trap '__rt_unwind' DEBUG
}

__rt_unwind() {
  case ${FUNCNAME[1]-} in
    '' | __rt_run) trap - DEBUG; return 0 ;;
  esac
  return 2
}

# A background job the run left is said at its end, never kept silently: what it does
# later was not previewed and undo does not cover it.
__rt_left() {
  local pid said=
  for pid in $(jobs -p); do
    case "$__rt_jobs " in *" $pid "*) continue ;; esac
    kill -0 "$pid" 2>/dev/null || continue  # ended (an interrupted one is listed still)
    said+="${said:+, }$(ps -o comm= -p "$pid" 2>/dev/null || echo job) ($pid)"
  done
  if [[ -n $said ]]; then
    printf '[left running in the background: %s; what it does later was not previewed and cannot be undone]\n' "$said" >&2
  fi
}

if [[ $1 == --once ]]; then  # one run of the file $2, then exit with its status
  if [[ -n ${3-} ]]; then source "$3" 2>/dev/null; fi
  trap '__rt_on_int "${FUNCNAME[0]-}" && return 130' INT
  shopt -s extdebug
  __rt_run "$2"
  if (( __rt_stop )); then exit 130; fi
  exit "$__rt_status"
fi
__rt_orig=$1
exec {__rt_control}<&"$__rt_orig" {__rt_orig}<&-
shopt -s extdebug
trap '__rt_on_int "${FUNCNAME[0]-}" && return 130' INT
while :; do
  IFS= read -r __rt_request <&"$__rt_control"
  __rt_rc=$?
  if (( __rt_rc > 128 )); then continue; fi
  if (( __rt_rc != 0 )); then exit 0; fi
  __rt_jobs=" $(jobs -p | tr '\n' ' ')"
  __rt_run "${__rt_request#* }"
  __rt_left
  if (( __rt_stop )); then __rt_status=130; fi
  printf '%s%d;' "${__rt_request%% *}" "$__rt_status"
  printf '%s%d;' "${__rt_request%% *}" "$__rt_status" >&2
done
