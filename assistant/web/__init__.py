"""`assistant serve`: the same turns, approvals and history over HTTP, for a browser page.

The server is a front end like the terminal and the popup: it consumes the core's events
(sent as the journal stores them) and answers proposals through the policy. It binds to
loopback, wants its token on every request, checks Host and Origin, and has no way to
change settings.
"""
