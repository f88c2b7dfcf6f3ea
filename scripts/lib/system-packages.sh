# The Debian packages scripts/setup makes sure of. Adding one is adding one line.
# shellcheck shell=bash
#
# Fields, separated by '|':
#   package   the Debian package name
#   need      required (setup fails without it) or optional (setup warns and goes on)
#   check     a command that, when it succeeds, means the package is not needed
#             (e.g. node already on PATH from elsewhere); '-' to rely on dpkg alone
#   without   what does not work while it is missing (shown when it cannot be installed)
# shellcheck disable=SC2034  # read by scripts/setup
SYSTEM_PACKAGES=(
    "nodejs|optional|have node|JavaScript runs are unavailable (the assistant says so when asked)"
    "python3-venv|required|venv_not_needed|.venv cannot be created"
    "git|optional|have git|no version control for the checkout (the assistant itself runs)"
    "xvfb|optional|-|no virtual screen: the desktop tests cannot run"
    "xdotool|optional|-|no synthetic input for the desktop tests"
    "x11-xserver-utils|optional|-|xset is missing: held keys repeat in the desktop tests"
)
