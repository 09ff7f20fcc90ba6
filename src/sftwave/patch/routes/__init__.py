"""The routes of each anchor library: ``routes.<target>.routes() -> list[Route]``."""
