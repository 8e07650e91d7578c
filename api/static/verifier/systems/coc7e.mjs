// Call of Cthulhu 7e: a port of domain/rules/coc7e/verification.py. A percentile roll (tens dice
// and a units die) is read again from its faces: result, level of success and whether it met its
// difficulty (domain/rules/coc7e/percentile.py); a roll on the random hazards table
// (coc7e-chases.txt "Random Hazards and Barriers") gives its result and the table its outcome.
import { VerificationFailed } from "../verify.mjs";
import { ReadBackError, get, has, isWhole, num, pyEq, pyStr } from "../python.mjs";

const LEVELS = ["fumble", "failure", "regular", "hard", "extreme", "critical"];
const RANK = Object.fromEntries(LEVELS.map((level, rank) => [level, rank]));
const MAX_BONUS_OR_PENALTY = 2;
const TABLE_NAME = "random hazards and barriers";
const HAZARDS = [[96, "extreme"], [85, "hard"], [60, "regular"], [1, "clear"]];

function netDice(bonus, penalty) {
  for (const value of [bonus, penalty]) if (!isWhole(value) || value < 0) throw new ReadBackError("bonus and penalty dice are whole numbers 0 or more");
  return Math.max(-MAX_BONUS_OR_PENALTY, Math.min(MAX_BONUS_OR_PENALTY, bonus - penalty));
}

function levelOf(result, target) {
  target = num(target);
  if (result === 1) return "critical";
  if (result === 100 || (target < 50 && result >= 96)) return "fumble";
  if (result <= Math.floor(target / 5)) return "extreme";
  if (result <= Math.floor(target / 2)) return "hard";
  if (result <= target) return "regular";
  return "failure";
}

function resolve(target, faces, bonus, penalty) {
  const net = netDice(bonus, penalty);
  if (faces.length < 2) throw new ReadBackError("a percentile roll has tens dice and a units die");
  const units = num(faces[faces.length - 1]);
  const results = faces.slice(0, -1).map((t) => num(t) + units).map((v) => (v === 0 ? 100 : v));
  const kept = net > 0 ? Math.min(...results) : net < 0 ? Math.max(...results) : results[0];
  return { result: kept, level: levelOf(kept, target) };
}

function meets(level, difficulty) {
  if (typeof difficulty !== "string" || !Object.hasOwn(RANK, difficulty)) throw new ReadBackError("no such difficulty");
  return RANK[level] >= RANK[difficulty];
}

function outcomeOf(result) {
  if (!isWhole(result) || result < 1 || result > 100) throw new ReadBackError("a 1D100 result is a whole number from 1 to 100");
  return HAZARDS.find(([lowest]) => result >= lowest)[1];
}

export function checkRoll(version, roll, faces) {
  if (!has(roll, "tens")) return false;
  const sequence = get(roll, "sequence");
  const bonus = get(roll, "bonus_dice", 0);
  const penalty = get(roll, "penalty_dice", 0);
  if (get(roll, "table") === TABLE_NAME) {
    let result, outcome;
    try {
      result = resolve(0, faces, bonus, penalty).result;
      outcome = outcomeOf(result);
    } catch (e) {
      if (e instanceof ReadBackError) throw new VerificationFailed(version, `table roll ${pyStr(sequence)} cannot be read back from its faces`);
      throw e;
    }
    if (!pyEq([get(roll, "result"), get(roll, "outcome")], [result, outcome])) {
      throw new VerificationFailed(version, `table roll ${pyStr(sequence)}: its faces give ${result} (${outcome}), not what is recorded`);
    }
    return true;
  }
  let expected;
  try {
    if (!has(roll, "target")) throw new ReadBackError("no target");
    const read = resolve(roll.target, faces, bonus, penalty);
    expected = [read.result, read.level, meets(read.level, get(roll, "difficulty", "regular"))];
  } catch (e) {
    if (e instanceof ReadBackError) throw new VerificationFailed(version, `percentile roll ${pyStr(sequence)} cannot be read back from its faces`);
    throw e;
  }
  if (!pyEq([get(roll, "result"), get(roll, "level"), get(roll, "success")], expected)) {
    throw new VerificationFailed(version, `roll ${pyStr(sequence)}: its faces give ${expected[0]} (${expected[1]}), not what is recorded`);
  }
  return true;
}
