"""What the LLM may call besides `execute`: tools of MCP servers and of plugins.

Every call is a proposal like code: rated, approved by the policy, journaled, shown and
spoken by every front end. Importing this package is light; the MCP SDK loads only when a
server starts.
"""
