# Sourced in the live shell with a file name: writes bash that gives a fresh shell this
# one's state (its variables, exported or not, arrays, functions, options and folder), so
# a what-if run started with `--once PATH STATE` sees what the real run would see. The
# driver's own names, bash's read-only and special variables, and traps are left out.
{
  for __rt_name in $(compgen -v); do
    case $__rt_name in
      __rt_* | BASH* | FUNCNAME | GROUPS | DIRSTACK | PIPESTATUS | SHELLOPTS | EUID | UID \
        | PPID | SHLVL | LINENO | RANDOM | SRANDOM | SECONDS | EPOCH* | HISTCMD | OPTIND \
        | OPTARG | OPTERR | COMP_* | PWD | OLDPWD | _) continue ;;
    esac
    __rt_declared=$(declare -p "$__rt_name" 2>/dev/null) || continue
    __rt_flags=${__rt_declared#declare }
    case ${__rt_flags%% *} in *r*) continue ;; esac
    printf '%s\n' "$__rt_declared"
  done
  for __rt_name in $(compgen -A function); do
    case $__rt_name in __rt_*) continue ;; esac
    declare -f "$__rt_name"
  done
  shopt -p
  set +o
  printf 'cd -- %q\n' "$PWD"
} >"$1"
unset __rt_name __rt_declared __rt_flags
