import type { TargetGuard } from '../../core/ports/target-guard.js';
import {
  addressRefusal,
  bareHost,
  literalAddress,
  systemLookup,
  type HostLookup,
} from './target-resolution.js';

/** What the registration-time guard allows and how it resolves names. */
export type DnsTargetGuardOptions = {
  /** Accept loopback, private, link-local and metadata addresses (development only). */
  allowPrivateTargets: boolean;
  /** Resolves host names; `dns.lookup` with every address unless a test injects one. */
  lookup?: HostLookup;
};

/**
 * Checks a hook's URL when it is registered: http or https, and a host whose every address is
 * public. The sender checks again at delivery time, since a name can change what it resolves to.
 */
export class DnsTargetGuard implements TargetGuard {
  constructor(private readonly options: DnsTargetGuardOptions) {}

  /** Why the URL may not be a webhook target, or undefined when it may. */
  async refusal(url: string): Promise<string | undefined> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return `${url} is not a valid URL`;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      return `scheme ${parsed.protocol} is not allowed: a webhook URL is http or https`;
    }
    // With private targets allowed there is no address to refuse, and development setups (compose
    // service names, hosts brought up later) often register before their names resolve.
    if (this.options.allowPrivateTargets) return undefined;
    const literal = literalAddress(parsed);
    if (literal) return addressRefusal(parsed.hostname, [literal]);
    const host = bareHost(parsed);
    let addresses: string[];
    try {
      addresses = (await (this.options.lookup ?? systemLookup)(host)).map((a) => a.address);
    } catch (err) {
      // Refused rather than let through: a typo'd host would otherwise be accepted and then fail
      // every delivery in silence until someone reads the attempts log.
      const code = (err as { code?: string }).code;
      return `refused target ${host}: does not resolve${code ? ` (${code})` : ''}`;
    }
    if (addresses.length === 0) return `refused target ${host}: does not resolve`;
    return addressRefusal(host, addresses);
  }
}

/** A registration-time guard; `allowPrivateTargets` accepts any http(s) URL. */
export function createDnsTargetGuard(options: DnsTargetGuardOptions): DnsTargetGuard {
  return new DnsTargetGuard(options);
}
