// How Clarity values print: the canonical repr and inferred type name that stacks-encoding-native-js
// (and so the Stacks API and Chainhook) produce, for the byte decoder in clarity-repr.ts.

/** A value's canonical repr and inferred type name. */
export type Decoded = { repr: string; type: string };

/** `(list a b)`, typed by its first element as Clarity's inference does (`UnknownType` when empty). */
export function listRepr(items: Decoded[]): Decoded {
  let repr = '(list';
  for (const item of items) repr += ` ${item.repr}`;
  return {
    repr: `${repr})`,
    type: `(list ${items.length} ${items.length > 0 ? items[0].type : 'UnknownType'})`,
  };
}

/** `(tuple (a u1))`, keys in sorted order whatever order they came in. */
export function tupleRepr(entries: { name: string; value: Decoded }[]): Decoded {
  // Consensus serializations are already sorted; the canonical repr sorts regardless.
  let sorted = true;
  for (let i = 1; i < entries.length; i++) if (entries[i - 1].name > entries[i].name) sorted = false;
  if (!sorted) entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let repr = '(tuple';
  let type = '(tuple';
  for (const { name, value } of entries) {
    repr += ` (${name} ${value.repr})`;
    type += ` (${name} ${value.type})`;
  }
  return { repr: `${repr})`, type: `${type})` };
}

/** `"abc"` with Rust's ASCII escapes; `text` holds one char per byte. */
export function asciiRepr(text: string): Decoded {
  let repr = '"';
  for (let i = 0; i < text.length; i++) repr += escapeAsciiByte(text.charCodeAt(i));
  return { repr: `${repr}"`, type: `(string-ascii ${text.length})` };
}

/** `u"…"`: ASCII escaped like strings, every other character as `\\u{<UTF-8 bytes in hex>}`. */
export function utf8Repr(text: string): Decoded {
  let repr = 'u"';
  let chars = 0;
  for (const char of text) {
    chars++;
    const code = char.codePointAt(0) ?? 0;
    // Clarity escapes every non-ASCII character as \u{<its UTF-8 bytes in hex>}.
    repr += code < 0x80 ? escapeAsciiByte(code) : `\\u{${Buffer.from(char, 'utf8').toString('hex')}}`;
  }
  // Clarity sizes string-utf8 at four bytes per character.
  return { repr: `${repr}"`, type: `(string-utf8 ${chars * 4})` };
}

/** Rust's `std::ascii::escape_default`, which Clarity uses for string reprs. */
function escapeAsciiByte(byte: number): string {
  switch (byte) {
    case 0x09:
      return '\\t';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x22:
      return '\\"';
    case 0x27:
      return "\\'";
    case 0x5c:
      return '\\\\';
    default:
      return byte >= 0x20 && byte < 0x7f
        ? String.fromCharCode(byte)
        : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
}
