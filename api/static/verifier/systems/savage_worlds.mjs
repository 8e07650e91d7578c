// Savage Worlds (SWADE and Deluxe): a port of domain/rules/savage_worlds/verification.py. A trait
// roll is rolled again from its faces (aces, Wild Die, raises, Critical Failure: dice.py and
// acing.py); damage and table rolls add up, and only a die showing its highest face aced. A
// shuffle records no faces: its dealt cards are checked by the core against the revealed seed.
import { VerificationFailed } from "../verify.mjs";
import { ReadBackError, get, isWhole, num, pyEq, pyRepr, pyStr, pyTruth } from "../python.mjs";

const KINDS = ["trait roll", "damage roll", "table roll", "shuffle"];
const TARGET_NUMBER = 4;  // core rules "Trait Rolls"
const RAISE_STEP = 4;  // core rules "Raises"
const JOKER_BONUS = 2;  // core rules "Jokers"
const TRAIT = /^\s*d\s*(4|6|8|10|12)\s*(?:([+-])\s*(\d{1,2}))?\s*$/i;

function traitDie(text) {
  const match = typeof text === "string" ? TRAIT.exec(text) : null;
  if (!match) throw new ReadBackError("not a trait die");
  const bonus = match[3] ? (match[2] === "-" ? -1 : 1) * Number.parseInt(match[3], 10) : 0;
  return { sides: Number.parseInt(match[1], 10), bonus };
}

function whole(value) {
  if (!isWhole(value)) throw new ReadBackError("must be a whole number");
  return value;
}

// Faces laid out as base dice then each base die's ace rerolls (acing.py chains_plan).
function readChains(base, faces) {
  const dice = [...base];
  if (faces.length < base.length) return { dice, chains: faces.map((f) => [f]), complete: false };
  const chains = base.map((_, i) => [faces[i]]);
  let position = base.length;
  for (let i = 0; i < base.length; i++) {
    while (pyEq(chains[i][chains[i].length - 1], base[i])) {
      dice.push(base[i]);
      if (position >= faces.length) return { dice, chains, complete: false };
      chains[i].push(faces[position]);
      position += 1;
    }
  }
  return { dice, chains, complete: true };
}

function traitRoll(faces, die, wildCard, modifier, targetNumber, joker) {
  die = traitDie(die);
  whole(modifier);
  whole(targetNumber);
  const base = [die.sides, ...(pyTruth(wildCard) ? [6] : [])];  // a die by its sides
  const plan = (shown) => {
    const { dice, chains, complete } = readChains(base, shown);
    // The Extra's critical-failure d6 is rolled only after the trait die settles on a natural 1.
    if (complete && !pyTruth(wildCard) && pyEq(chains[0][0], 1)) dice.push(6);
    return dice;
  };
  const dice = plan(faces);
  if (dice.length !== faces.length) throw new ReadBackError("the faces are not a whole roll");
  faces.forEach((f, i) => {  // TableDice.draw: every face a whole number on its die
    if (!isWhole(f) || f < 1 || f > dice[i]) throw new ReadBackError("not a face of its die");
  });
  const { chains } = readChains(base, faces);
  const extraCheck = faces.length > chains.reduce((n, c) => n + c.length, 0) ? faces[faces.length - 1] : null;
  const sum = (chain) => chain.reduce((a, b) => a + b, 0);
  const traitSum = sum(chains[0]);
  const wildSum = pyTruth(wildCard) ? sum(chains[1]) : 0;
  const total = Math.max(traitSum, wildSum) + die.bonus + num(modifier) + (pyTruth(joker) ? JOKER_BONUS : 0);
  const critical = pyTruth(wildCard) ? chains[0][0] === 1 && chains[1][0] === 1 : extraCheck === 1;
  const success = total >= num(targetNumber) && !critical;
  const raises = success ? Math.floor((total - targetNumber) / RAISE_STEP) : 0;
  return { total, success, raises, critical };
}

export function checkRoll(version, roll, faces) {
  const kind = get(roll, "kind");
  const sequence = get(roll, "sequence");
  if (!KINDS.includes(kind)) return false;
  if (kind === "trait roll") {
    let again;
    try {
      for (const key of ["trait_die", "wild_card", "modifier", "target_number", "joker"]) if (!Object.hasOwn(roll, key)) throw new ReadBackError(key);
      again = traitRoll(faces, roll.trait_die, roll.wild_card, roll.modifier, roll.target_number, roll.joker);
    } catch (e) {
      if (e instanceof ReadBackError) throw new VerificationFailed(version, `trait roll ${pyStr(sequence)} cannot be read back from its faces`);
      throw e;
    }
    const recorded = [get(roll, "total"), get(roll, "success"), get(roll, "raises"), get(roll, "critical_failure")];
    if (!pyEq(recorded, [again.total, again.success, again.raises, again.critical])) {
      throw new VerificationFailed(version, `trait roll ${pyStr(sequence)}: its faces ${pyRepr(faces)} give total ${again.total}, not what is recorded`);
    }
    return true;
  }
  for (const die of get(roll, "dice", [])) {
    const sides = Number.parseInt(String(get(die, "die", "d0")).replace(/^d+/, "") || "0", 10);
    if (pyTruth(get(die, "aced")) && !pyEq(get(die, "face"), sides)) {
      throw new VerificationFailed(version, `roll ${pyStr(sequence)}: a ${pyStr(get(die, "die"))} showing ${pyStr(get(die, "face"))} did not ace`);
    }
  }
  let expected;
  if (kind === "damage roll") {
    expected = faces.reduce((a, f) => a + num(f), 0) + num(get(roll, "modifier", 0)) + (pyTruth(get(roll, "joker")) ? JOKER_BONUS : 0);
  } else if (kind === "table roll") {
    expected = faces.reduce((a, f) => a + num(f), 0);
  } else {
    return true;
  }
  if (!pyEq(get(roll, "total"), expected)) {
    throw new VerificationFailed(version, `roll ${pyStr(sequence)}: faces ${pyRepr(faces)} make ${expected}, not ${pyStr(get(roll, "total"))}`);
  }
  return true;
}

export { TARGET_NUMBER };
