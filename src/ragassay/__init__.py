"""ragassay: trustworthy, frugal evaluation of retrieval-augmented generation."""

__version__ = "0.1.0"
