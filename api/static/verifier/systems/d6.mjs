// D6 System: a port of domain/rules/d6/verification.py. The roll is read again from its faces
// under its die code and the GM's choice for a 1 on the Wild Die (domain/rules/d6/dice.py): how
// many dice it took (one more per 6 on the Wild Die), which were taken away, the total with pips
// and bonuses, whether it met its difficulty, and the complication.
import { VerificationFailed } from "../verify.mjs";
import { ReadBackError, get, isObject, isWhole, num, pyEq, pyInt, pyRepr, pyStr } from "../python.mjs";

const KIND = "d6 roll";
const WILD_DIE_ONE = ["remove", "no_effect", "complication"];
const CODE = /^\s*(\d{1,3})\s*[dD]\s*(?:([+-])\s*(\d{1,2}))?\s*$/;

function dieCode(text) {
  const match = typeof text === "string" ? CODE.exec(text) : null;
  if (!match) throw new ReadBackError("not a die code");
  const dice = Number.parseInt(match[1], 10);
  const pips = (match[2] === "-" ? -1 : 1) * Number.parseInt(match[3] || "0", 10);
  if (dice < 1 || dice > 30 || pips < -2 || pips > 2) throw new ReadBackError("not a die code");
  return { dice, pips, label: `${dice}D` + (pips ? (pips > 0 ? `+${pips}` : `${pips}`) : "") };
}

function diceWanted(code, faces) {
  let wanted = code.dice;
  while (faces.length >= wanted && faces[wanted - 1] === 6) wanted += 1;
  return wanted;
}

function read(code, faces, one) {
  const ordinary = faces.slice(0, code.dice - 1);
  const wild = faces.slice(code.dice - 1);
  const oneRolled = wild[0] === 1;
  let removed = [];
  if (oneRolled && one === "remove") {
    let highest = null;  // the highest ordinary die, the first of equals
    ordinary.forEach((f, i) => { if (highest === null || f > ordinary[highest]) highest = i; });
    removed = [code.dice - 1, ...(highest === null ? [] : [highest])].sort((a, b) => a - b);
  }
  const kept = faces.reduce((sum, f, i) => sum + (removed.includes(i) ? 0 : f), 0);
  return { wild, oneRolled, complication: oneRolled && one === "complication", removed, diceTotal: kept + code.pips };
}

export function checkRoll(version, roll, faces) {
  if (get(roll, "kind") !== KIND) return false;
  const sequence = get(roll, "sequence");
  let reading, bonus;
  try {
    if (!Object.hasOwn(roll, "code") || !Object.hasOwn(roll, "wild_die_one")) throw new ReadBackError("missing");
    const code = dieCode(roll.code);
    if (!WILD_DIE_ONE.some((one) => pyEq(one, roll.wild_die_one))) throw new ReadBackError("no such choice");
    const bonuses = get(roll, "bonus", {});
    if (!isObject(bonuses)) throw new ReadBackError("bonus is not a mapping");
    bonus = Object.values(bonuses).reduce((sum, v) => sum + pyInt(v), 0);
    if (faces.some((f) => !isWhole(f) || f < 1 || f > 6) || diceWanted(code, faces) !== faces.length) {
      throw new VerificationFailed(version, `D6 roll ${pyStr(sequence)}: faces ${pyRepr(faces)} are not a whole roll of ${code.label} with its Wild Die`);
    }
    reading = read(code, faces, roll.wild_die_one);
  } catch (e) {
    if (e instanceof ReadBackError) throw new VerificationFailed(version, `D6 roll ${pyStr(sequence)} cannot be read back from its faces`);
    throw e;
  }
  const total = reading.diceTotal + bonus;
  const difficulty = get(roll, "difficulty");
  const success = difficulty === null ? null : total >= num(difficulty);
  const expected = [total, success, reading.oneRolled, reading.complication, reading.removed, reading.wild];
  const recorded = ["total", "success", "wild_die_one_rolled", "complication", "removed", "wild_die"].map((k) => get(roll, k));
  if (!pyEq(recorded, expected)) {
    throw new VerificationFailed(version, `D6 roll ${pyStr(sequence)}: its faces ${pyRepr(faces)} give total ${total} (${success ? "met" : "missed"} ${pyStr(difficulty)}), not what is recorded`);
  }
  return true;
}
