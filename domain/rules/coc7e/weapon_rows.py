"""The rows of coc7e-combat.txt "Table XVII: Weapons" as printed, one tuple a weapon.

Columns: name, skill, damage, base range, uses per round, bullets in gun (mag), cost 20s/modern,
malfunction, common in era -- then whether the row (or its table's heading) carries "(i)", the
mark of a weapon that can impale. Damage is written as the domain reads it: "+DB" the damage
bonus, "+half DB" half of it (the Key: bows, thrown weapons; the bow's printed "1D6+half" and
the war boomerang's "1D8+half STR" read as half DB), a shotgun's bands "4D6/2D6/1D6", an
explosive's "4D10" with its blast radius in the range column's place (weapons.py reads them).
The skill column prints a bare "Firearms" for most guns; it is read with the specialization of
its table as the Key's acronyms name them (HG: Handgun, R/S: Rifle/Shotgun, SMG, MG), and as
Flamethrower and Heavy Weapons for those two. Departures from the print, each for an evident
misprint, are noted on their row.
"""
from __future__ import annotations

HAND_TO_HAND = "Hand-to-Hand Weapons"
HANDGUNS = "Handguns"
RIFLES = "Rifles"
SHOTGUNS = "Shotguns"
ASSAULT_RIFLES = "Assault Rifles"
SMGS = "Submachine Guns"
MACHINE_GUNS = "Machine Guns"
EXPLOSIVES = "Explosives, Heavy Weapons, Misc."

Row = tuple[str, str, str, str, str, str, str, str, str, bool]

ROWS: dict[str, tuple[Row, ...]] = {
    HAND_TO_HAND: (
        ("Bow and Arrows", "Firearms (Bow)", "1D6+half DB", "30 yards", "1", "1", "$7/$75", "97", "1920s, Modern", False),
        ("Brass Knuckles", "Fighting (Brawl)", "1D3+1+DB", "Touch", "1", "-", "$1/$10", "-", "1920s, Modern", False),
        ("Bullwhip", "Fighting (Whip)", "1D3+half DB", "10 feet", "1", "-", "$5/$50", "-", "1920s", False),
        ("Burning Torch", "Fighting (Brawl)", "1D6+burn", "Touch", "1", "-", "$0.05/$0.50", "-", "1920s, Modern", False),
        ("Chainsaw", "Fighting (Chainsaw)", "2D8", "Touch", "1", "-", "-/$300", "95", "Modern", True),
        ("Blackjack (Cosh, life-preserver)", "Fighting (Brawl)", "1D8+DB", "Touch", "1", "-", "$2/$15", "-", "1920s, Modern", False),
        ("Club, large (baseball, cricket bat, poker)", "Fighting (Brawl)", "1D8+DB", "Touch", "1", "-", "$3/$35", "-", "1920s, Modern", False),
        ("Club, small (nightstick)", "Fighting (Brawl)", "1D6+DB", "Touch", "1", "-", "$3/$35", "-", "1920s, Modern", False),
        ("Crossbow", "Firearms (Bow)", "1D8+2", "50 yards", "1/2", "1", "$10/$100", "96", "1920s, Modern", True),
        ("Garrote", "Fighting (Garrote)", "1D6+DB", "Touch", "1", "-", "$0.50/$3", "-", "1920s, Modern", True),
        ("Hatchet/Sickle", "Fighting (Axe)", "1D6+1+DB", "Touch", "1", "-", "$3/$9", "-", "1920s, Modern", True),
        ("Knife, Large (machete, etc.)", "Fighting (Brawl)", "1D8+DB", "Touch", "1", "-", "$4/$50", "-", "1920s, Modern", True),
        ("Knife, Medium (carving knife, etc.)", "Fighting (Brawl)", "1D4+2+DB", "Touch", "1", "-", "$2/$15", "-", "1920s, Modern", True),
        ("Knife, Small (switchblade, etc.)", "Fighting (Brawl)", "1D4+DB", "Touch", "1", "-", "$2/$6", "-", "1920s, Modern", True),
        ("Live Wire, 220-volt charge", "Fighting (Brawl)", "2D8+stun", "Touch", "1", "-", "-", "95", "Modern", False),
        ("Mace Spray", "Fighting (Brawl)", "stun", "6 feet", "1", "25 Squirts", "-/$10", "-", "1920s, Modern", False),
        ("Nunchaku", "Fighting (Flail)", "1D8+DB", "Touch", "1", "-", "$1/$10", "-", "1920s, Modern", False),
        ("Rock, Thrown", "Throw", "1D4+half DB", "STR feet", "1", "-", "-", "-", "1920s, Modern", False),
        ("Shuriken", "Throw", "1D3+half DB", "20 yards", "2", "One Use", "$0.50/$3", "100", "1920s, Modern", True),
        ("Spear (cavalry lance)", "Fighting (Spear)", "1D8+1", "Touch", "1", "-", "$25/$150", "-", "1920s, Modern", False),
        # Printed twice, the same both times.
        ("Spear, Thrown", "Throw", "1D8+half DB", "STR yards", "1", "-", "$1/$25", "-", "Rare", True),
        ("Sword, heavy (cavalry saber)", "Fighting (Sword)", "1D8+1+DB", "Touch", "1", "-", "$30/$75", "-", "1920s, Modern", False),
        ("Sword, medium (rapier, heavy epee)", "Fighting (Sword)", "1D6+1+DB", "Touch", "1", "-", "$15/$100", "-", "1920s, Modern", True),
        ("Sword, light (sharpened fencing foil, sword cane)", "Fighting (Sword)", "1D6+DB", "Touch", "1", "-", "$25/$100", "-", "1920s, Modern", True),
        ("Taser (contact)", "Fighting (Brawl)", "1D3+stun", "Touch", "1", "Varies", "-/$200", "97", "Modern", False),
        ("Taser (dart)", "Firearms (Handgun)", "1D3+stun", "15 feet", "1", "3", "-/$400", "95", "Modern", False),
        ("War Boomerang", "Throw", "1D8+half DB", "STR yards", "1", "-", "$2/$4", "-", "Rare", False),
        ("Wood Axe", "Fighting (Axe)", "1D8+2+DB", "Touch", "1", "-", "$5/$10", "-", "1920s, Modern", True),
    ),
    # "Handguns (i)*": every handgun can impale.
    HANDGUNS: (
        ("Flintlock", "Firearms (Handgun)", "1D6+1", "10 yards", "1/4", "1", "$30/$300", "95", "Rare", True),
        (".22 Short Automatic", "Firearms (Handgun)", "1D6", "10 yards", "1 (3)", "6", "$25/$190", "100", "1920s, Modern", True),
        (".25 Derringer (1B)", "Firearms (Handgun)", "1D6", "3 yards", "1", "1", "$12/$55", "100", "1920s", True),
        (".32 or 7.65mm Revolver", "Firearms (Handgun)", "1D8", "15 yards", "1 (3)", "6", "$15/$200", "100", "1920s, Modern", True),
        (".32 or 7.65mm Automatic", "Firearms (Handgun)", "1D8", "15 yards", "1 (3)", "8", "$20/$350", "99", "1920s, Modern", True),
        (".357 Magnum Revolver", "Firearms (Handgun)", "1D8+1D4", "15 yards", "1 (3)", "6", "-/$425", "100", "Modern", True),
        (".38 or 9mm Revolver", "Firearms (Handgun)", "1D10", "15 yards", "1 (3)", "6", "$25/$200", "100", "1920s, Modern", True),
        (".38 Automatic", "Firearms (Handgun)", "1D10", "15 yards", "1 (3)", "8", "$30/$375", "99", "1920s, Modern", True),
        ("Beretta M9", "Firearms (Handgun)", "1D10", "15 yards", "1", "15", "-/$500", "98", "Modern", True),
        ("Glock 17 9mm Auto", "Firearms (Handgun)", "1D10", "15 yards", "1", "17", "-/$500", "98", "Modern", True),
        ("Model P08 Luger", "Firearms (Handgun)", "1D10", "15 yards", "1", "8", "$75/$600", "99", "1920s, Modern", True),
        (".41 Revolver", "Firearms (Handgun)", "1D10", "15 yards", "1", "8", "$30/-", "100", "1920s, Rare", True),
        (".44 Magnum Revolver", "Firearms (Handgun)", "1D10+1D4+2", "15 yards", "1 (3)", "6", "-/$475", "100", "Modern", True),
        (".45 Revolver", "Firearms (Handgun)", "1D10+2", "15 yards", "1 (3)", "6", "$30/$300", "100", "1920s, Modern", True),
        (".45 Automatic", "Firearms (Handgun)", "1D10+2", "15 yards", "1 (3)", "7", "$40/$375", "100", "Modern", True),
        ("IMI Desert Eagle", "Firearms (Handgun)", "1D10+1D6+3", "15 yards", "1 (3)", "7", "-/$650", "94", "Modern", True),
    ),
    # "Rifles(i)*": every rifle can impale.
    RIFLES: (
        (".58 Springfield Rifle Musket", "Firearms (Rifle/Shotgun)", "1D10+4", "60 yards", "1/4", "1", "$25/$350", "95", "Rare", True),
        (".22 Bolt-Action Rifle", "Firearms (Rifle/Shotgun)", "1D6+1", "30 yards", "1", "6", "$13/$70", "99", "1920s, Modern", True),
        (".30 Lever-Action Carbine", "Firearms (Rifle/Shotgun)", "2D6", "50 yards", "1", "6", "$19/$150", "98", "1920s, Modern", True),
        (".45 Martini-Henry Rifle", "Firearms (Rifle/Shotgun)", "1D8+1D6+3", "80 yards", "1/3", "1", "$20/$200", "100", "1920s", True),
        ("Col. Moran's Air Rifle", "Firearms (Rifle/Shotgun)", "2D6+1", "20 yards", "1/3", "1", "$200", "88", "1920s", True),
        ("Garand M1, M2 Rifle", "Firearms (Rifle/Shotgun)", "2D6+4", "110 yards", "1", "8", "$400", "100", "WWII, Later", True),
        ("SKS Carbine", "Firearms (Rifle/Shotgun)", "2D6+1", "90 yards", "1 (2)", "10", "$500", "97", "Modern", True),
        (".303 Lee-Enfield", "Firearms (Rifle/Shotgun)", "2D6+4", "110 yards", "1", "5", "$50/$300", "100", "1920s, Modern", True),
        # Printed "110 yards 110 yards": the second is the uses-per-round column's misprint for 1.
        (".30-06 Bolt-Action Rifle", "Firearms (Rifle/Shotgun)", "2D6+4", "110 yards", "1", "5", "$75/$175", "100", "1920s, Modern", True),
        (".30-06 Semi-Automatic Rifle", "Firearms (Rifle/Shotgun)", "2D6+4", "110 yards", "1", "5", "$275", "100", "Modern", True),
        (".444 Marlin Rifle", "Firearms (Rifle/Shotgun)", "2D8+4", "110 yards", "1", "5", "$400", "98", "Modern", True),
        ("Elephant Gun (2B)", "Firearms (Rifle/Shotgun)", "3D6+4", "100 yards", "1 or 2", "2", "$400/$1,800", "100", "1920s, Modern", True),
    ),
    # "Shotguns*": no (i); "shotguns, which fire a mass of smaller shot, cannot impale".
    SHOTGUNS: (
        ("20-gauge Shotgun (2B)", "Firearms (Rifle/Shotgun)", "2D6/1D6/1D3", "10/20/50 yards", "1 or 2", "2", "$35/Rare", "100", "1920s", False),
        ("16-gauge Shotgun (2B)", "Firearms (Rifle/Shotgun)", "2D6+2/1D6+1/1D4", "10/20/50 yards", "1 or 2", "2", "$40/Rare", "100", "1920s", False),
        ("12-gauge Shotgun (2B)", "Firearms (Rifle/Shotgun)", "4D6/2D6/1D6", "10/20/50 yards", "1 or 2", "2", "$40/$200", "100", "1920s, Modern", False),
        ("12-gauge Shotgun (Pump)", "Firearms (Rifle/Shotgun)", "4D6/2D6/1D6", "10/20/50 yards", "1", "5", "$45/$100", "100", "Modern", False),
        ("12-gauge Shotgun (semi-auto)", "Firearms (Rifle/Shotgun)", "4D6/2D6/1D6", "10/20/50 yards", "2", "5", "$45/$100", "100", "Modern", False),
        ("12-gauge Shotgun (2B sawed off)", "Firearms (Rifle/Shotgun)", "4D6/1D6", "5/10 yards", "1 or 2", "2", "N/A", "100", "1920s", False),
        ("10-gauge Shotgun (2B)", "Firearms (Rifle/Shotgun)", "4D6+2/2D6+1/1D4", "10/20/50 yards", "1 or 2", "2", "Rare", "100", "1920s, Rare", False),
        ("12-gauge Benelli M3 (folding stock)", "Firearms (Rifle/Shotgun)", "4D6/2D6/1D6", "10/20/50 yards", "1 or 2", "7", "-/$895", "100", "Modern", False),
        ("12-gauge SPAS (folding stock)", "Firearms (Rifle/Shotgun)", "4D6/2D6/1D6", "10/20/50 yards", "1", "8", "-/$600", "98", "Modern", False),
    ),
    # No (i) is printed on the heading, but these are rifles, and "Rifles and handguns can impale"
    # (Key, "Shotguns"); the skill is Rifle/Shotgun for single shots, SMG for bursts and full auto.
    ASSAULT_RIFLES: (
        ("AK-47 or AKM", "Firearms (Rifle/Shotgun)", "2D6+1", "100 yards", "1 (2) or full auto", "30", "-/$200", "100", "Modern", True),
        ("AK-74", "Firearms (Rifle/Shotgun)", "2D6", "110 yards", "1 (2) or full auto", "30", "-/$1,000", "97", "Modern", True),
        ("Barrett Model 82", "Firearms (Rifle/Shotgun)", "2D10+1D8+6", "250 yards", "1", "11", "-/$3,000", "96", "Modern", True),
        ("FN FAL Light Automatic", "Firearms (Rifle/Shotgun)", "2D6+4", "110 yards", "1 (2) or burst 3", "20", "-/$1,500", "97", "Modern", True),
        ("Galil Assault Rifle", "Firearms (Rifle/Shotgun)", "2D6", "110 yards", "1 or full auto", "20", "-/$2,000", "98", "Modern", True),
        ("M16A2", "Firearms (Rifle/Shotgun)", "2D6", "110 yards", "1 (2) or burst 3", "30", "N/A", "97", "Modern", True),
        ("M4", "Firearms (Rifle/Shotgun)", "2D6", "90 yards", "1 or burst 3", "30", "N/A", "97", "Modern", True),
        ("Steyr AUG", "Firearms (Rifle/Shotgun)", "2D6", "110 yards", "1 (2) or full auto", "30", "-/$1,100", "99", "Modern", True),
        ("Beretta M70/90", "Firearms (Rifle/Shotgun)", "2D6", "110 yards", "1 or full auto", "30", "-/$2,800", "99", "Modern", True),
    ),
    SMGS: (
        ("Bergmann MP181/MP2811", "Firearms (SMG)", "1D10", "20 yards", "1 (2) or full auto", "20/30/32", "$1,000/$20,000", "96", "1920s", True),
        ("Heckler & Koch MP5", "Firearms (SMG)", "1D10", "20 yards", "1 (2) or full auto", "15/30", "N/A", "97", "Modern", True),
        ("Ingram MAC-11", "Firearms (SMG)", "1D10", "15 yards", "1 (3) or full auto", "32", "-/$750", "96", "Modern", True),
        ("Skorpion SMG", "Firearms (SMG)", "1D8", "15 yards", "1 (3) or full auto", "20", "N/A", "96", "Modern", True),
        ("Thompson", "Firearms (SMG)", "1D10+2", "20 yards", "1 or full auto", "20/30/50", "$200/$1,600", "96", "1920s", True),
        ("Uzi SMG", "Firearms (SMG)", "1D10", "20 yards", "1 (2) or full auto", "32", "-/$1,000", "98", "Modern", True),
    ),
    MACHINE_GUNS: (
        ("Model 1882 Gatling Gun", "Firearms (MG)", "2D6+4", "100 yards", "Full auto", "200", "$2,000/$14,000", "96", "1920s, Rare", True),
        ("Browning Auto Rifle M1918", "Firearms (MG)", "2D6+4", "90 yards", "1 (2) or full auto", "20", "$800/$1,500", "100", "1920s", True),
        (".30 Browning M1917A1", "Firearms (MG)", "2D6+4", "150 yards", "Full auto", "250", "$3,000/$30,000", "96", "1920s", True),
        ("Bren Gun", "Firearms (MG)", "2D6+4", "110 yards", "1 or full auto", "30/100", "$3,000/$50,000", "96", "1920s", True),
        ("Mark I Lewis Gun", "Firearms (MG)", "2D6+4", "110 yards", "Full auto", "27/97", "$3,000/$20,000", "96", "1920s", True),
        ("Minigun", "Firearms (MG)", "2D6+4", "200 yards", "Full auto", "4000", "N/A", "98", "Modern", True),
        ("FN Minimi, 5.56mm", "Firearms (MG)", "2D6", "110 yards", "Full auto", "30/200", "N/A", "99", "Modern", True),
        ("Vickers .303 Machine Gun", "Firearms (MG)", "2D6+4", "110 yards", "Full auto", "250", "N/A", "99", "1920s", True),
    ),
    # "Explosives, Heavy Weapons, Misc. (i)". Damage "3D10/2 yards": the dice, then the blast
    # radius (Key: halved up to double it, quartered up to triple, none beyond).
    EXPLOSIVES: (
        ("Molotov Cocktail", "Throw", "2D6+burn", "STR feet", "1/2", "1 only", "N/A", "95", "1920s, Modern", True),
        ("Signal Handgun", "Firearms (Handgun)", "1D10+1D3+burn", "10 yards", "1/2", "1", "$15/$75", "100", "1920s, Modern", True),
        ("M79 Grenade", "Firearms (Rifle/Shotgun)", "3D10/2 yards", "20 yards", "1/3", "1", "N/A", "99", "Modern", True),
        ("Dynamite Stick", "Throw", "4D10/3 yards", "STR feet", "1/2", "1 only", "$2/$5", "99", "1920s, Modern", True),
        ("Blasting Cap", "Electrical Repair", "2D10/1 yard", "N/A", "N/A", "One use", "$20/box", "100", "1920s, Modern", True),
        ("Pipe Bomb", "Demolitions", "1D10/3 yards", "In place", "One use", "1 only", "N/A", "95", "1920s, Modern", True),
        ("Plastique (C-4)", "Demolitions", "6D10/3 yards", "In place", "One use", "1 only", "N/A", "99", "Modern", True),
        ("Hand Grenade", "Throw", "4D10/3 yards", "STR feet", "1/2", "1 only", "N/A", "99", "1920s, Modern", True),
        ("81mm Mortar", "Artillery", "6D10/6 yards", "500 yards", "2", "Separate", "N/A", "100", "Modern", True),
        ("75mm Field Gun", "Artillery", "10D10/2 yards", "500 yards", "1/4", "Separate", "$1,500/-", "99", "1920s, Modern", True),
        ("120mm Tank Gun (stabilized)", "Artillery", "15D10/4 yards", "2,000 yards", "1", "Separate", "N/A", "100", "Modern", True),
        ("Ship-mounted 5-inch rifle (stabilized)", "Artillery", "12D10/4 yards", "3,000 yards", "2", "Automagazine", "N/A", "98", "Modern", True),
        ("Anti-Personnel Mine", "Demolitions", "4D10/5 yards", "In place", "In place", "One use", "N/A", "99", "1920s, Modern", True),
        ("Claymore Mine", "Demolitions", "6D6/20 yards", "In place", "In place", "One use", "N/A", "99", "Modern", True),
        ("Flamethrower", "Firearms (Flamethrower)", "2D6+burn", "25 yards", "1", "At least 10", "N/A", "93", "1920s, Modern", True),
        ("LAW", "Firearms (Heavy Weapons)", "8D10/1 yard", "150 yards", "1", "1", "N/A", "98", "Modern", True),
    ),
}
