"""`assistant daemon`: the assistant as a desktop user meets it every day.

A tray icon shows one visible state machine (state.py); the hotkey, the tray menu, the
popup and the voice all drive one conversation (controller.py); every approval goes
through one approver that takes the first human answer from any channel (approvals.py);
only one daemon runs per user (instance.py); autostart.py installs it for login.
Nothing here is imported by the core.
"""
