// Every game system's roll check, in the order infrastructure/systems.py registers the systems
// (the only module of this verifier that names them, as that registry is on the Python side).
import { checkRoll as coc7e } from "./systems/coc7e.mjs";
import { checkRoll as savageWorlds } from "./systems/savage_worlds.mjs";
import { checkRoll as d6 } from "./systems/d6.mjs";

export const CHECKS = [coc7e, savageWorlds, d6];
