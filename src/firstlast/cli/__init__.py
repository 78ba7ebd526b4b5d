"""The ``firstlast`` command line (click). Each face of the game adds its subcommands."""
