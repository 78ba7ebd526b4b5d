"""firstlast: the Russian patience First and Last (Первые и последние)."""

__version__ = "0.1.0"
