// A census of a V8 heap snapshot (`.heapsnapshot`, as `--heapsnapshot-signal` or
// `v8.writeHeapSnapshot` write it after a full collection): objects and bytes by constructor, and
// the largest single objects with what holds them, so two snapshots of one process can be compared.
import { readFile } from 'node:fs/promises';

/** Objects of one kind: how many, and their own bytes. */
export type Census = Map<string, { count: number; bytes: number }>;

/** One of the largest objects: its kind, its own bytes, and the holder and edge it is held by. */
export type LargeObject = { kind: string; bytes: number; heldBy: string };

type Snapshot = {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[]];
      edge_fields: string[];
      edge_types: [string[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
};

/** The census of the snapshot at `path`, its total bytes, and its `top` largest objects. */
export async function heapCensus(
  path: string,
  top = 15,
): Promise<{ total: number; census: Census; largest: LargeObject[] }> {
  const heap = JSON.parse(await readFile(path, 'utf8')) as Snapshot;
  const { node_fields, node_types, edge_fields, edge_types } = heap.snapshot.meta;
  const width = node_fields.length;
  const edgeWidth = edge_fields.length;
  const [typeAt, nameAt, sizeAt, edgesAt] = ['type', 'name', 'self_size', 'edge_count'].map((f) =>
    node_fields.indexOf(f),
  );
  const [edgeTypeAt, edgeNameAt, edgeToAt] = ['type', 'name_or_index', 'to_node'].map((f) =>
    edge_fields.indexOf(f),
  );
  const { nodes, edges, strings } = heap;
  // Objects are named by their constructor; strings, arrays and V8's own kinds by their type.
  const kindOf = (i: number) => {
    const type = node_types[0][nodes[i + typeAt]];
    return type === 'object' || type === 'closure' ? strings[nodes[i + nameAt]] : `(${type})`;
  };
  const census: Census = new Map();
  let total = 0;
  const bySize: number[] = [];
  for (let i = 0; i < nodes.length; i += width) {
    const bytes = nodes[i + sizeAt];
    total += bytes;
    const kind = kindOf(i);
    const entry = census.get(kind) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += bytes;
    census.set(kind, entry);
    bySize.push(i);
  }
  bySize.sort((a, b) => nodes[b + sizeAt] - nodes[a + sizeAt]);
  const wanted = new Map(bySize.slice(0, top).map((i) => [i, '?']));
  // One pass over the edges finds a holder of each of the largest objects.
  for (let i = 0, e = 0; i < nodes.length; i += width) {
    for (let n = nodes[i + edgesAt]; n > 0; n--, e += edgeWidth) {
      const to = edges[e + edgeToAt];
      if (wanted.get(to) !== '?') continue;
      const edgeType = edge_types[0][edges[e + edgeTypeAt]];
      if (edgeType === 'weak') continue;
      const name =
        edgeType === 'element' || edgeType === 'hidden'
          ? `[${edges[e + edgeNameAt]}]`
          : strings[edges[e + edgeNameAt]];
      wanted.set(to, `${kindOf(i)}.${name}`);
    }
  }
  const largest = [...wanted].map(([i, heldBy]) => ({ kind: kindOf(i), bytes: nodes[i + sizeAt], heldBy }));
  return { total, census, largest };
}
