"""Savage Worlds: trait and damage rolls with aces, Action cards, SWADE Chase Cards and SWD action-card chases."""
