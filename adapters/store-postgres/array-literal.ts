/** Elements that stand in an array literal as they are: nothing to quote, and not the word NULL. */
const PLAIN = /^[A-Za-z0-9_.:-]+$/;

/**
 * A Postgres array literal (`{a,"b c",NULL}`) for a parameter cast to an array type. node-pg builds
 * one from a JavaScript array by quoting and escaping every element into a string grown piece by
 * piece, which for the thousands of uuids a live step sends allocated megabytes a block; here
 * elements that need no quoting (uuids, hex hashes, ids, numbers) go as they are, in one join.
 */
export function arrayLiteral(values: readonly (string | number | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null) parts[i] = 'NULL';
    else if (typeof value === 'number') parts[i] = String(value);
    else if (PLAIN.test(value) && value.toUpperCase() !== 'NULL') parts[i] = value;
    else parts[i] = `"${value.replace(/[\\"]/g, '\\$&')}"`;
  }
  return `{${parts.join(',')}}`;
}

/**
 * An array literal of JSON texts, or pieces of one as `JSON.stringify` writes it, for a `text[]`
 * parameter. Such text holds no raw control characters and no lone surrogates, so the only escapes
 * `JSON.stringify` gives its elements are `\"` and `\\`, exactly the array literal's own: one native
 * call quotes them all, where `arrayLiteral` runs a replace on each (a thousand payload bodies'
 * texts took it several milliseconds a block).
 */
export function jsonTextsLiteral(values: readonly (string | null)[]): string {
  const quoted = JSON.stringify(values);
  return `{${quoted.slice(1, -1)}}`;
}
