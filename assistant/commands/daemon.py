"""`assistant daemon`: the assistant on the desktop: tray icon, hotkey, popup, speech.

Hold the hotkey (ctrl+alt+space by default), speak, let go; the proposal is read out and
shown in a popup; Run, the tray's "Run pending" or a spoken "yes" runs it. One daemon
runs per user; a second start brings the first one forward. The state changes are
logged on stderr, one line each: `assistant daemon: state OLD -> NEW (DETAIL)`.
"""

from __future__ import annotations

import argparse
import os
import sys

from assistant.commands.voice import add_voice_options


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(prog="assistant daemon",
                                    description=__doc__.splitlines()[0])
    add_voice_options(parse)
    parse.add_argument("--api-key", help="API key for the model's provider")
    parse.add_argument("--profile", help="a TOML profile from the config folder's profiles/")
    parse.add_argument("--local", dest="offline", action="store_const", const=True,
                       help="only local models (Ollama, else the embedded model)")
    parse.add_argument("--no-tray", action="store_true", help="run without a tray icon")
    parse.add_argument("--install-autostart", action="store_true",
                       help="start the daemon at login (XDG autostart and a systemd user unit)")
    parse.add_argument("--uninstall-autostart", action="store_true",
                       help="remove what --install-autostart wrote")
    return parse


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if args.install_autostart or args.uninstall_autostart:
        return autostart(install=args.install_autostart)
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        print("assistant daemon: no display here (DISPLAY is not set): use `assistant voice` "
              "for push-to-talk in a terminal", file=sys.stderr)
        return 2

    from assistant.config import ConfigError, load_settings
    from assistant.daemon import app

    flags = {k: v for k, v in vars(args).items()
             if k not in ("quiet", "no_tray", "install_autostart", "uninstall_autostart")}
    try:
        settings = load_settings(flags)
    except ConfigError as exc:
        app.log(f"assistant daemon: {exc}")
        return 2
    return app.run(settings, quiet=args.quiet, tray=not args.no_tray)


def autostart(install: bool) -> int:
    from assistant.daemon import autostart as files

    try:
        lines = files.install() if install else files.uninstall()
    except (files.AutostartError, OSError) as exc:
        print(f"assistant daemon: {exc}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0
