/** Array items or Map entries serialized between two turns of the event loop. */
const SLICE_ITEMS = 256;

/**
 * The compact JSON text of a top-level object, in pieces: each array with more than a slice of items
 * and each Map (written as an object) is cut into slices of `SLICE_ITEMS`, so a caller that awaits
 * between pieces never holds the event loop for longer than a slice takes, whatever the document
 * holds. Fields that are undefined are left out, as `JSON.stringify` leaves them out.
 */
export function* jsonPieces(document: unknown): Generator<string> {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    yield JSON.stringify(document);
    return;
  }
  let first = true;
  yield '{';
  for (const [field, value] of Object.entries(document)) {
    if (value === undefined) continue;
    yield `${first ? '' : ','}${JSON.stringify(field)}:`;
    first = false;
    if (value instanceof Map) yield* mapPieces(value as Map<string, unknown>);
    else if (Array.isArray(value) && value.length > SLICE_ITEMS) yield* arrayPieces(value);
    else yield JSON.stringify(value);
  }
  yield '}';
}

function* arrayPieces(items: readonly unknown[]): Generator<string> {
  yield '[';
  for (let start = 0; start < items.length; start += SLICE_ITEMS) {
    const slice = JSON.stringify(items.slice(start, start + SLICE_ITEMS));
    // Each slice is an array's text: its brackets are dropped and slices joined by commas.
    yield `${start === 0 ? '' : ','}${slice.slice(1, -1)}`;
  }
  yield ']';
}

function* mapPieces(map: Map<string, unknown>): Generator<string> {
  yield '{';
  let slice: string[] = [];
  let first = true;
  for (const [key, value] of map) {
    slice.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
    if (slice.length === SLICE_ITEMS) {
      yield `${first ? '' : ','}${slice.join(',')}`;
      first = false;
      slice = [];
    }
  }
  if (slice.length > 0) yield `${first ? '' : ','}${slice.join(',')}`;
  yield '}';
}
