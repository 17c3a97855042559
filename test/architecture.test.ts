import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const IMPORT = /(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2]);
}

/** The top folder and, under adapters/, the adapter a project file belongs to. */
function layerOf(path: string): string {
  const parts = relative(ROOT, path).split(sep);
  return parts[0] === 'adapters' ? `adapters/${parts[1]}` : parts[0];
}

describe('the dependency rule', () => {
  it('keeps core/ free of adapters, apps, I/O modules and frameworks', () => {
    const forbidden =
      /^(node:)?(fs|fs\/promises|http|https|net|child_process|dns|tls|dgram)$|^(koa|@koa\/router|koa-body|got|lowdb|pg|undici|ajv)(\/|$)/;
    const offences: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'core'))) {
      for (const spec of importsOf(file)) {
        const target = spec.startsWith('.') ? layerOf(resolve(dirname(file), spec)) : undefined;
        if (forbidden.test(spec) || (target && target !== 'core'))
          offences.push(`${relative(ROOT, file)} -> ${spec}`);
      }
    }
    expect(offences).to.deep.equal([]);
  });

  it('never lets one adapter import another, or an app', () => {
    const offences: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'adapters'))) {
      const own = layerOf(file);
      for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
        const target = layerOf(resolve(dirname(file), spec));
        if (target !== own && target !== 'core' && target !== 'spec')
          offences.push(`${relative(ROOT, file)} -> ${spec}`);
      }
    }
    expect(offences).to.deep.equal([]);
  });
});

/** The project files a core file imports (type-only imports included: a circle of types is still a circle). */
function coreImports(file: string): string[] {
  return importsOf(file)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec).replace(/\.js$/, '.ts'))
    .filter((path) => layerOf(path) === 'core');
}

describe('the shape of core', () => {
  it('has no import circle between its files', () => {
    const graph = new Map(sourceFiles(join(ROOT, 'core')).map((file) => [file, coreImports(file)]));
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        const circle = path.slice(path.indexOf(file)).concat(file);
        circles.push(circle.map((f) => relative(ROOT, f)).join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(circles).to.deep.equal([]);
  });

  it('keeps the chain model free of the node codec (the codec builds chain blocks, never the reverse)', () => {
    const offences: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'core', 'chain'))) {
      for (const target of coreImports(file)) {
        if (relative(ROOT, target).startsWith(join('core', 'stacks-codec')))
          offences.push(`${relative(ROOT, file)} -> ${relative(ROOT, target)}`);
      }
    }
    expect(offences).to.deep.equal([]);
  });
});
