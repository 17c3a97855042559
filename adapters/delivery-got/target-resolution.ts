import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress } from './address-class.js';

/** Resolves a host name to every address it has (like `dns.lookup(host, { all: true })`). */
export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver, as the sockets would use it: `dns.lookup` with every address. */
export const systemLookup: HostLookup = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

/** The guard refused the address a target host resolved to; never worth retrying. */
export class RefusedTargetError extends Error {
  /** Set so that got keeps it on the `RequestError` it wraps this in. */
  readonly code = 'ERR_REFUSED_TARGET';
}

/** The host of a URL as an address or name: `[::1]` loses its brackets. */
export function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** The IP literal a URL names, or undefined when it names a host to resolve. */
export function literalAddress(url: URL): string | undefined {
  const host = bareHost(url);
  return isIP(host) ? host : undefined;
}

/** Why `host` may not be a target given its addresses (the first non-public one), or undefined. */
export function addressRefusal(host: string, addresses: readonly string[]): string | undefined {
  for (const address of addresses) {
    const category = classifyAddress(address);
    if (category !== 'public') return `refused target ${host}: resolves to ${address} (${category})`;
  }
  return undefined;
}

/**
 * A `lookup` for got's sockets that refuses non-public addresses after resolving: the check and
 * the connection use the same answer, so a name cannot pass a check and then rebind to 127.0.0.1.
 */
export function guardedLookup(lookup: HostLookup, allowPrivateTargets: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname).then(
      (found) => {
        if (!allowPrivateTargets) {
          const refusal = addressRefusal(
            hostname,
            found.map((a) => a.address),
          );
          if (refusal) return callback(new RefusedTargetError(refusal), []);
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const addresses = wanted ? found.filter((a) => a.family === wanted) : found;
        if (addresses.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          return callback(err, []);
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}
