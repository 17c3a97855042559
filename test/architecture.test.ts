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
