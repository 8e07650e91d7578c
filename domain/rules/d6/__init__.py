"""D6 System: difficulty-based movement, races and chases (d6-movement.txt)."""
