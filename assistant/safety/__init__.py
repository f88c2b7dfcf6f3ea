"""Who may approve a run, and on what grounds."""
