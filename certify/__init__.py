"""nn-certify: machine-checked certificates about neural networks."""

__version__ = "0.1.0"
