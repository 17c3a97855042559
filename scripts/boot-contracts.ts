/**
 * Writes `core/contracts/boot-contracts.json`, the ABIs of the boot contracts (the contracts a node
 * instantiates without a deploy transaction), from `@stacks/clarinet-sdk`'s simnet:
 * `npm run boot-contracts`. With `--out FILE` it writes there instead (the test compares the two).
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { initSimnet } from '@stacks/clarinet-sdk';

const BOOT_ADDRESSES = { mainnet: 'SP000000000000000000002Q6VF78', testnet: 'ST000000000000000000002AMW42H' };
const SHIPPED = fileURLToPath(new URL('../core/contracts/boot-contracts.json', import.meta.url));

// The smallest Clarinet project the simnet accepts: no contracts of its own, one devnet account.
const MANIFEST = '[project]\nname = "boot-contracts"\nrequirements = []\n\n[contracts]\n';
const DEVNET = [
  '[network]',
  'name = "devnet"',
  '',
  '[accounts.deployer]',
  'mnemonic = "twice kind fence tip hidden tilt action fragile skin nothing glory cousin green tomorrow spring wrist shed math olympic multiply hip blue scout claw"',
  'balance = 100_000_000_000_000',
  '',
].join('\n');

const out = process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : SHIPPED;
// The package exports no `./package.json`: its entry point lies four folders below it.
const sdkEntry = createRequire(import.meta.url).resolve('@stacks/clarinet-sdk');
const sdkVersion = (
  JSON.parse(await readFile(join(sdkEntry, '../../../../../package.json'), 'utf8')) as { version: string }
).version;

const contracts = await bootInterfaces();
const data = { source: `@stacks/clarinet-sdk ${sdkVersion}, simnet getContractsInterfaces()`, contracts };
await writeFile(out, `${render(data, 0)}\n`);
console.log(`wrote ${Object.keys(contracts).length} boot contracts to ${out}`);

/**
 * JSON with one line per function, variable or map (the nesting below is indented, everything
 * deeper is compact): a regenerated file's diff shows what changed, at a third of an indented
 * file's size. Prettier leaves the file alone (.prettierignore).
 */
function render(value: unknown, depth: number): string {
  if (depth >= 4 || value === null || typeof value !== 'object') return JSON.stringify(value);
  const pad = '  '.repeat(depth + 1);
  const entries = Array.isArray(value)
    ? value.map((item) => render(item, depth + 1))
    : Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${render(item, depth + 1)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return `${open}${close}`;
  return `${open}\n${pad}${entries.join(`,\n${pad}`)}\n${'  '.repeat(depth)}${close}`;
}

/**
 * The boot contracts' interfaces by contract name. The simnet holds them under both boot addresses;
 * the shipped data keeps one per name, so the two networks must agree (they do: only the contracts'
 * constants differ, never their functions).
 */
async function bootInterfaces(): Promise<Record<string, unknown>> {
  const project = await mkdtemp(join(tmpdir(), 'stackhooks-boot-contracts-'));
  const cwd = process.cwd();
  try {
    await mkdir(join(project, 'settings'));
    await writeFile(join(project, 'Clarinet.toml'), MANIFEST);
    await writeFile(join(project, 'settings', 'Devnet.toml'), DEVNET);
    // The simnet reads its project from the working directory.
    process.chdir(project);
    const simnet = await initSimnet(join(project, 'Clarinet.toml'), true);
    const interfaces = simnet.getContractsInterfaces();
    const byNetwork = { mainnet: new Map<string, unknown>(), testnet: new Map<string, unknown>() };
    for (const [id, abi] of interfaces) {
      const [address, name] = id.split('.');
      if (address === BOOT_ADDRESSES.mainnet) byNetwork.mainnet.set(name, abi);
      if (address === BOOT_ADDRESSES.testnet) byNetwork.testnet.set(name, abi);
    }
    const names = [...byNetwork.mainnet.keys()].sort();
    if (names.length === 0) throw new Error('the simnet holds no boot contract');
    const contracts: Record<string, unknown> = {};
    for (const name of names) {
      const abi = byNetwork.mainnet.get(name);
      if (!isDeepStrictEqual(abi, byNetwork.testnet.get(name))) {
        throw new Error(
          `boot contract ${name} differs between mainnet and testnet: ship one ABI per network`,
        );
      }
      contracts[name] = abi;
    }
    const testnetOnly = [...byNetwork.testnet.keys()].filter((name) => !byNetwork.mainnet.has(name));
    if (testnetOnly.length > 0) throw new Error(`boot contracts only on testnet: ${testnetOnly.join(', ')}`);
    return contracts;
  } finally {
    process.chdir(cwd);
    await rm(project, { recursive: true, force: true });
  }
}
