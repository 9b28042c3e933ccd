"""Numbo's rules of play: pure Python, no Django import.

Every game exposes the contract in :mod:`engine.core`; :mod:`engine.registry`
maps a game's slug to it.
"""
