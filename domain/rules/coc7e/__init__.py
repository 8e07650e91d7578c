"""Call of Cthulhu 7th edition: percentile skill rolls, chases (coc7e-chases.txt) and combat."""
