"""What-if runs: a proposal runs once in a copy-on-write view of the machine, its effect
on files is told from what it wrote there, and a committed run can be undone.

world (the namespace, in the process that runs the code), survey (the upper folder read
back), effect (changes to an Effect and its sentence), uncovered (what a preview cannot
see), preview (the host's side), undo (what runs replaced, and putting it back),
transaction (preview, keep, run, compare).
"""
