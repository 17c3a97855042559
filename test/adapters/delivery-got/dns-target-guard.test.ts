import { expect } from 'chai';
import { createDnsTargetGuard, type HostLookup } from '../../../adapters/delivery-got/index.js';

describe('DnsTargetGuard', () => {
  const resolvesTo =
    (...addresses: string[]): HostLookup =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const strict = (lookup?: HostLookup) => createDnsTargetGuard({ allowPrivateTargets: false, lookup });

  it('refuses a loopback IP literal, naming host, address and category', async () => {
    expect(await strict().refusal('http://127.0.0.1:3000/hook')).to.equal(
      'refused target 127.0.0.1: resolves to 127.0.0.1 (loopback)',
    );
  });

  it('refuses private, link-local, metadata and IPv6 loopback literals', async () => {
    const guard = strict();
    expect(await guard.refusal('http://10.0.0.1/')).to.match(/\(private\)$/);
    expect(await guard.refusal('http://192.168.1.1/')).to.match(/\(private\)$/);
    expect(await guard.refusal('http://169.254.169.254/latest')).to.match(/\(metadata\)$/);
    expect(await guard.refusal('https://[fe80::1]/')).to.match(/\(link-local\)$/);
    expect(await guard.refusal('http://[::1]/')).to.match(/resolves to ::1 \(loopback\)$/);
  });

  it('refuses localhost after resolving it', async () => {
    expect(await strict().refusal('http://localhost:4000/')).to.match(
      /^refused target localhost: resolves to (127\.0\.0\.1|::1) \(loopback\)$/,
    );
  });

  it('refuses a name that resolves to a private address', async () => {
    const guard = strict(resolvesTo('10.0.0.5'));
    expect(await guard.refusal('https://hooks.example.test/in')).to.equal(
      'refused target hooks.example.test: resolves to 10.0.0.5 (private)',
    );
  });

  it('refuses a name when any one of its addresses is not public', async () => {
    const guard = strict(resolvesTo('93.184.216.34', 'fd00:ec2::254'));
    expect(await guard.refusal('https://mixed.example.test/')).to.match(/fd00:ec2::254 \(metadata\)$/);
  });

  it('refuses a host that does not resolve', async () => {
    const guard = strict(async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    });
    expect(await guard.refusal('https://typo.example.test/')).to.equal(
      'refused target typo.example.test: does not resolve (ENOTFOUND)',
    );
  });

  it('refuses schemes other than http and https', async () => {
    expect(await strict().refusal('ftp://93.184.216.34/')).to.match(/scheme ftp: is not allowed/);
    expect(await strict().refusal('file:///etc/passwd')).to.match(/scheme file: is not allowed/);
  });

  it('refuses a string that is not a URL', async () => {
    expect(await strict().refusal('not a url')).to.equal('not a url is not a valid URL');
  });

  it('accepts a public IP literal without any lookup', async () => {
    const guard = strict(async () => {
      throw new Error('no lookup expected for a literal');
    });
    expect(await guard.refusal('http://93.184.216.34/hook')).to.equal(undefined);
  });

  it('accepts a name whose addresses are all public', async () => {
    const guard = strict(resolvesTo('93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'));
    expect(await guard.refusal('https://example.test/hook')).to.equal(undefined);
  });

  it('accepts loopback, private and unresolvable hosts when private targets are allowed', async () => {
    const guard = createDnsTargetGuard({
      allowPrivateTargets: true,
      lookup: async () => {
        throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
      },
    });
    for (const url of [
      'http://127.0.0.1:4000/',
      'http://localhost/',
      'http://10.0.0.1/',
      'http://compose-svc/',
    ]) {
      expect(await guard.refusal(url), url).to.equal(undefined);
    }
  });

  it('still refuses other schemes when private targets are allowed', async () => {
    const guard = createDnsTargetGuard({ allowPrivateTargets: true });
    expect(await guard.refusal('gopher://127.0.0.1/')).to.match(/scheme gopher: is not allowed/);
  });
});
