"""What the exact solver says about a finished game: forced guesses and fatal mistakes."""
