import { publicKeyFromSignatureVrs } from '@stacks/transactions';
import { SignerWireError } from './wire-reader.js';

/**
 * The compressed public key (`0x` hex) that made a Stacks `MessageSignature` (recovery id, then
 * r and s: 65 bytes) over a 32-byte digest. A signature no key can have made throws `SignerWireError`.
 */
export function recoverSignerKey(digest: Uint8Array, signature: Uint8Array): string {
  if (signature.length !== 65) throw new SignerWireError(`a signature has ${signature.length} bytes, not 65`);
  if (signature[0]! > 3) throw new SignerWireError(`a signature has recovery id ${signature[0]}`);
  try {
    return `0x${publicKeyFromSignatureVrs(Buffer.from(digest).toString('hex'), Buffer.from(signature).toString('hex'))}`;
  } catch (err) {
    throw new SignerWireError(`no public key recovers from the signature: ${(err as Error).message}`);
  }
}
