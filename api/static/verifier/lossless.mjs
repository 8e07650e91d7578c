// JSON read without losing how each number was written. The chain's old encoding (sorted-json)
// writes a number as Python read it: "60.0" is a float and stays "60.0", "60" an int; JSON.parse
// makes both 60. So records are hashed from this reading of the export's text, where every
// number keeps its text (and an integer beyond 2**53 its every digit); the checks read the same
// text with JSON.parse.

export class LosslessNumber {
  constructor(text) {
    this.text = text;
    this.isFloat = /[.eE]/.test(text);  // how Python's json reads it: int unless it has a fraction or exponent
  }
}

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

export function parseLossless(text) {
  let at = 0;
  const skip = () => { WHITESPACE.lastIndex = at; WHITESPACE.exec(text); at = WHITESPACE.lastIndex; };
  const token = (pattern) => {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) throw new SyntaxError(`unexpected text at ${at}`);
    at = pattern.lastIndex;
    return match[0];
  };
  const expect = (c) => {
    if (text[at] !== c) throw new SyntaxError(`expected ${c} at ${at}`);
    at += 1;
  };
  function value() {
    skip();
    const c = text[at];
    if (c === "{") {
      at += 1;
      const object = {};
      skip();
      if (text[at] === "}") { at += 1; return object; }
      for (;;) {
        skip();
        const key = JSON.parse(token(STRING));
        skip();
        expect(":");
        Object.defineProperty(object, key, { value: value(), enumerable: true, writable: true, configurable: true });
        skip();
        if (text[at] === ",") { at += 1; continue; }
        expect("}");
        return object;
      }
    }
    if (c === "[") {
      at += 1;
      const array = [];
      skip();
      if (text[at] === "]") { at += 1; return array; }
      for (;;) {
        array.push(value());
        skip();
        if (text[at] === ",") { at += 1; continue; }
        expect("]");
        return array;
      }
    }
    if (c === '"') return JSON.parse(token(STRING));
    for (const [word, literal] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, at)) { at += word.length; return literal; }
    }
    return new LosslessNumber(token(NUMBER));
  }
  const result = value();
  skip();
  if (at !== text.length) throw new SyntaxError(`unexpected text at ${at}`);
  return result;
}
