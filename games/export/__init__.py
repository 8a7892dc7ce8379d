"""Finished games exported as community replay files (EVF), written with the standard library."""
