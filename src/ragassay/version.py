"""The package's version, in a module of its own: every package below the top-level
facade (`ragassay.evaluate`) reads it without importing the facade."""

__version__ = "0.1.0"
