const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
// Keys come from the request; a path quoting a megabyte-long key would be useless to the reader.
const MAX_KEY_LENGTH = 64;

/**
 * The JS-style path (`filters.events[0].sender`) of the value at an ajv `instancePath` (a JSON
 * pointer), with `property` appended when the problem is about a key of that value. The data is
 * walked to tell array indexes from object keys that look like numbers. The empty path is `root`.
 */
export function fieldPath(root: string, instancePath: string, data: unknown, property?: string): string {
  const segments = instancePath === '' ? [] : instancePath.slice(1).split('/').map(unescapePointer);
  if (property !== undefined) segments.push(property);
  let path = '';
  let node = data;
  for (const segment of segments) {
    if (Array.isArray(node)) path += `[${segment}]`;
    else if (IDENTIFIER.test(segment) && segment.length <= MAX_KEY_LENGTH)
      path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(shorten(segment))}]`;
    node = childOf(node, segment);
  }
  return path === '' ? root : path;
}

/** How many steps below the root a path is; deeper problems are usually the more specific ones. */
export function pathDepth(instancePath: string): number {
  let depth = 0;
  for (let i = instancePath.indexOf('/'); i !== -1; i = instancePath.indexOf('/', i + 1)) depth += 1;
  return depth;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function childOf(node: unknown, key: string): unknown {
  if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
  return (node as Record<string, unknown>)[key];
}

function shorten(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `${key.slice(0, MAX_KEY_LENGTH)}…`;
}
