"""The loop around the model: one request in, proposals, approvals and runs, until the
turn ends in words. `session` drives it; the other modules are its steps."""
