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
    "xclip|optional|-|no clipboard: computer.clipboard and typing non-ASCII text fail"
    "tesseract-ocr|optional|-|no OCR fallback when rapidocr cannot load"
    "libnotify-bin|optional|-|computer.os.notify cannot show notifications"
    "python3-tk|optional|-|no Tk for Debian's python: the desktop tests' window cannot open"
    "fonts-dejavu-core|optional|-|the desktop tests' window has no font OCR reads well"
    "cmake|required|have cmake|the embedded LLM (llama-cpp-python) cannot be built"
    "g++|required|have c++|the embedded LLM (llama-cpp-python) cannot be built"
    "libportaudio2|optional|-|no microphone or speaker: voice input and spoken answers are unavailable"
    "espeak-ng|optional|-|the espeak-ng speech engine (and pyttsx3 on Linux) is unavailable"
    "sox|optional|-|python -m benchmarks.bench cannot make the speech benchmark's takes"
    "pulseaudio|optional|-|no virtual sound card: the voice tests cannot run"
    "libasound2-plugins|optional|-|sound cannot reach PulseAudio through ALSA: the voice tests cannot run"
    "scrot|optional|-|python -m benchmarks.bench --peers cannot measure the incumbent's click-by-text"
    "bubblewrap|optional|have bwrap|no sandbox: --sandbox refuses to run code"
    "bindfs|optional|have bindfs|no FUSE mount for the preview tests beside mounts: they cannot run"
    "xdg-desktop-portal|optional|-|no document portal: the preview test beside a desktop session's FUSE mount cannot run"
    "xdg-dbus-proxy|optional|have xdg-dbus-proxy|runs can reach the session bus, hence the keyring's stored API keys"
    "pkg-config|required|have pkg-config|PyGObject and pycairo (the tray's menu) cannot be built"
    "python3-dev|required|have python3-config|PyGObject and pycairo (the tray's menu) cannot be built"
    "libgirepository1.0-dev|required|-|PyGObject (the tray's menu) cannot be built"
    "libcairo2-dev|required|-|pycairo (the tray's menu) cannot be built"
    "gir1.2-gtk-3.0|optional|-|no GTK: the daemon runs without a tray icon"
    "gir1.2-ayatanaappindicator3-0.1|optional|-|no AppIndicator: no tray icon on KDE or GNOME (AppIndicator extension)"
    "at-spi2-core|optional|-|no accessibility bus: controls are found by OCR only (icons without text cannot be clicked by name)"
    "gir1.2-atspi-2.0|optional|-|the accessibility tree cannot be read: controls are found by OCR only"
    "libatk-adaptor|optional|-|GTK windows publish no accessibility tree: the accessibility tests cannot run"
    "openbox|optional|-|no window manager on Xvfb: the desktop verbs' tests cannot run"
    "zenity|optional|-|no zenity dialogs: the desktop verbs' tests cannot run"
    "yad|optional|-|no yad dialogs: the desktop verbs' tests cannot run"
    "dbus|optional|-|no D-Bus session bus (dbus-daemon, dbus-send): the tray tests cannot run"
    "trayer|optional|-|no system tray on Xvfb: the tray tests cannot run"
    "haskell-gtk-sni-tray-utils|optional|-|no StatusNotifier tray on Xvfb: the AppIndicator tray test cannot run"
    "xdg-utils|optional|have xdg-open|the daemon's Open journal folder and Settings only name the path"
    "chromium|optional|-|no browser: the web page's tests cannot run"
    "chromium-driver|optional|-|no chromedriver: the web page's tests cannot run"
    "openbox|optional|-|no window manager on Xvfb: the desktop task suite cannot run"
    "x11-utils|optional|-|no xprop: the desktop task suite cannot tell when its display is up"
    "zenity|optional|-|no zenity dialogs: the desktop task suite cannot run"
    "yad|optional|-|no yad dialogs: the desktop task suite cannot run"
    "mousepad|optional|-|no Mousepad editor: the desktop task suite cannot run"
    "gtk-3-examples|optional|-|no gtk3-widget-factory: the desktop task suite cannot run"
    "xterm|optional|-|no xterm: the desktop task suite cannot run"
)
