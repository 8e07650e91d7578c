// Dice expressions (1D3, 2D10, 1D10+1D4+2), read as domain/dice/expressions.py reads them: the
// core's own roll kind, checked by its total.

const MAX_DICE = 100;
const MAX_SIDES = 1000;
const TERM = /\s*([+-])?\s*(?:(\d*)\s*[dD]\s*(\d+)|(\d+)|([dD][bB]))\s*/y;

export class InvalidDiceExpression extends Error {}

// The recorded expression has its damage bonus already written out, so "DB" never reads.
export function parse(text) {
  if (typeof text !== "string" || !text.trim()) throw new InvalidDiceExpression("a dice expression is required");
  if (/db/i.test(text)) throw new InvalidDiceExpression("uses DB but the roller has no damage bonus");
  const terms = [];
  let modifier = 0;
  let position = 0;
  const source = text.trim();
  while (position < source.length) {
    TERM.lastIndex = position;
    const match = TERM.exec(source);
    if (!match || TERM.lastIndex === position) throw new InvalidDiceExpression(`cannot read ${source}`);
    const [, signText, countText, sidesText, constant, db] = match;
    if (db) throw new InvalidDiceExpression("DB must be written as +DB");
    if (position > 0 && signText === undefined) throw new InvalidDiceExpression("missing + or -");
    const sign = signText === "-" ? -1 : 1;
    if (sidesText !== undefined) {
      const count = countText ? Number.parseInt(countText, 10) : 1;
      const sides = Number.parseInt(sidesText, 10);
      if (!(count >= 1 && count <= MAX_DICE)) throw new InvalidDiceExpression("too many dice in one term");
      if (!(sides >= 2 && sides <= MAX_SIDES)) throw new InvalidDiceExpression("a die has 2 to 1000 sides");
      terms.push({ sign, count, sides });
    } else {
      if (constant.length > 6) throw new InvalidDiceExpression("a modifier of at most 999999 is allowed");
      modifier += sign * Number.parseInt(constant, 10);
    }
    position = TERM.lastIndex;
  }
  if (terms.reduce((n, t) => n + t.count, 0) > MAX_DICE) throw new InvalidDiceExpression("at most 100 dice in one expression");
  return {
    modifier,
    total(faces) {
      const signs = terms.flatMap((t) => Array(t.count).fill(t.sign));
      return signs.slice(0, faces.length).reduce((sum, s, i) => sum + s * faces[i], 0) + modifier;
    },
  };
}
